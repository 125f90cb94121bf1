-- final version
type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

onBoard :: Position -> Bool
onBoard (x,y) = abs x <= 3 && abs y <= 3 && (abs x <= 1 || abs y <= 1)

createBoard :: Position -> Board
createBoard p
  | onBoard p = [Peg (x,y) (if (x,y) == p then W else B) | x <- [-3..3], y <- [-3..3], onBoard (x,y)]
  | otherwise = error "The position is not valid."

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) b = onBoard (x,y) && Peg (x,y) B `elem` b
  && or [Peg q W `elem` b | q <- [(x-1,y),(x+1,y),(x,y-1),(x,y+1)]]

isGoal :: Board -> Bool
isGoal b = and [c == W | Peg _ c <- b]

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b
  | isGoal b = error "No Possible States Exist."
  | otherwise = [S (M p) [Peg q (if q == p then W else c) | Peg q c <- b] | Peg p B <- b, isValidMove (M p) b]
