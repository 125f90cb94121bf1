{- Peg Reversal Game -}

type Position = (Int, Int)

data Color = W | B
  deriving (Eq, Show)

data Peg = Peg Position Color
  deriving (Eq, Show)

data Move = M Position
  deriving (Eq, Show)

type Board = [Peg]

data State = S Move Board
  deriving (Eq, Show)

rows :: Int -> [Int]
rows x
  | x == -3 || x == 3 || x == -2 || x == 2 = [-1, 0, 1]
  | otherwise = [-3 .. 3]

createBoard :: Position -> Board
createBoard (a, b)
  | a < -3 || a > 3 || notElem b (rows a) = error "The position is not valid."
  | otherwise = [if (x, y) == (a, b) then Peg (x, y) W else Peg (x, y) B | x <- [-3 .. 3], y <- rows x]

-- a move is fine when the peg there is not white yet and a white peg is next to it
isValidMove :: Move -> Board -> Bool
isValidMove (M (x, y)) board =
  notElem (Peg (x, y) W) board
    && any (`elem` board) [Peg (x + 1, y) W, Peg (x - 1, y) W, Peg (x, y + 1) W, Peg (x, y - 1) W]

isGoal :: Board -> Bool
isGoal = all (\(Peg _ c) -> c == W)

showPossibleNextStates :: Board -> [State]
showPossibleNextStates board
  | isGoal board = error "No Possible States Exist."
  | otherwise = map (\p -> S (M p) (whiten p board)) [p | Peg p B <- board, isValidMove (M p) board]
  where
    whiten p = map (\(Peg q c) -> Peg q (if q == p then W else c))

main :: IO ()
main = do
  print (createBoard (0, 0))
  print (showPossibleNextStates (createBoard (0, 0)))
