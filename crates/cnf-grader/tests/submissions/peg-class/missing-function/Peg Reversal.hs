-- Peg Reversal
type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

isPosition :: Position -> Bool
isPosition (x,y) = elem (x,y) [(i,j) | i <- [-3..3], j <- [-3..3], abs i < 2 || abs j < 2]

createBoard :: Position -> Board
createBoard p
    | isPosition p = [Peg (i,j) (if (i,j) == p then W else B) | i <- [-3..3], j <- [-3..3], isPosition (i,j)]
    | otherwise = error "The position is not valid."

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) b = isPosition (x,y) && elem (Peg (x,y) B) b && whiteNext
    where whiteNext = or [elem (Peg q W) b | q <- [(x-1,y),(x+1,y),(x,y-1),(x,y+1)]]

allWhite :: Board -> Bool
allWhite [] = True
allWhite (Peg _ c : ps) = c == W && allWhite ps

-- TODO isGoal

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b
    | allWhite b = error "No Possible States Exist."
    | otherwise = [S (M p) (flipAt p b) | Peg p B <- b, isValidMove (M p) b]

flipAt :: Position -> Board -> Board
flipAt p = map (\(Peg q c) -> if q == p then Peg q W else Peg q c)
