type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

valid :: Position -> Bool
valid (x,y) = (abs x <= 1 && abs y <= 3) || (abs x <= 3 && abs y <= 1)

createBoard :: Position -> Board
createBoard p = if valid p then [Peg q (if q == p then W else B) | q <- [(x,y) | x <- [-3..3], y <- [-3..3], valid (x,y)]]
                else error "The position is not valid."

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) b = valid (x,y) && elem (Peg (x,y) B) b &&
                          (elem (Peg (x+1,y) W) b || elem (Peg (x-1,y) W) b || elem (Peg (x,y+1) W) b || elem (Peg (x,y-1) W) b)

isGoal :: Board -> Bool
isGoal b = not (elem B [c | Peg _ c <- b])

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b
  | isGoal b = error "No Possible States Exist."
  | otherwise = [S (M p) (flipIt p b) | Peg p B <- b, isValidMove (M p) b

flipIt :: Position -> Board -> Board
flipIt p b = [if q == p then Peg q W else Peg q c | Peg q c <- b]
