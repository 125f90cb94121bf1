-- Peg Reversal project
-- team 7

type Position = (Int, Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

onBoard :: Position -> Bool
onBoard (x, y) = (abs x <= 1 && abs y <= 3) || (abs x <= 3 && abs y <= 1)

createBoard :: Position -> Board
createBoard (a, b)
  | onBoard (a, b) = [Peg (x, y) (colour (x, y)) | x <- [-3 .. 3], y <- [-3 .. 3], onBoard (x, y)]
  | otherwise = error "Program error: The position is not valid."
  where
    colour p = if p == (a, b) then W else B

neighbours :: Position -> [Position]
neighbours (x, y) = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]

colourOf :: Position -> Board -> [Color]
colourOf p board = [c | Peg q c <- board, q == p]

isValidMove :: Move -> Board -> Bool
isValidMove (M p) board =
  onBoard p && colourOf p board == [B] && or [colourOf n board == [W] | n <- neighbours p]

isGoal :: Board -> Bool
isGoal board = and [c == W | Peg _ c <- board]

showPossibleNextStates :: Board -> [State]
showPossibleNextStates board
  | isGoal board = error "Program error: No Possible States Exist."
  | otherwise = [S (M p) (makeWhite p board) | Peg p _ <- board, isValidMove (M p) board]

makeWhite :: Position -> Board -> Board
makeWhite p board = [if q == p then Peg q W else Peg q c | Peg q c <- board]
