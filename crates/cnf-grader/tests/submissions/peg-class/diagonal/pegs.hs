type Position = (Int,Int)
data Color = W | B deriving (Eq,Show)
data Peg = Peg Position Color deriving (Eq,Show)
data Move = M Position deriving (Eq,Show)
type Board = [Peg]
data State = S Move Board deriving (Eq,Show)

inBoard :: Position -> Bool
inBoard (x,y) | x >= -1 && x <= 1 && y >= -3 && y <= 3 = True
              | x >= -3 && x <= 3 && y >= -1 && y <= 1 = True
              | otherwise = False

createBoard :: Position -> Board
createBoard pos | inBoard pos = [ makePeg (x,y) | x <- [-3..3], y <- [-3..3], inBoard (x,y) ]
                | otherwise = error "The position is not valid."
  where makePeg p | p == pos = Peg p W
                  | otherwise = Peg p B

-- the pegs around a position
around :: Position -> [Position]
around (x,y) = [ (x+i,y+j) | i <- [-1,0,1], j <- [-1,0,1], (i,j) /= (0,0) ]

isWhite :: Position -> Board -> Bool
isWhite p b = elem (Peg p W) b

isValidMove :: Move -> Board -> Bool
isValidMove (M p) b = inBoard p && elem (Peg p B) b && any (\q -> isWhite q b) (around p)

isGoal :: Board -> Bool
isGoal b = filter (\(Peg _ c) -> c == B) b == []

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b | isGoal b = error "No Possible States Exist."
                         | otherwise = [ S (M p) (turn p b) | (Peg p c) <- b, isValidMove (M p) b ]

turn :: Position -> Board -> Board
turn p b = map (\(Peg q c) -> if q == p then Peg q W else Peg q c) b
