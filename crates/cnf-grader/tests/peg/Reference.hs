-- Peg Reversal: the four functions of the assignment, written from the
-- specification alone (the `+` board of 33 holes, their order by column
-- then row, neighbours up, down, left and right, the two exact errors), in
-- plain Haskell as a student hands it in for WinHugs: no module header, no
-- main. The grader's tests run it through the grader's drivers on every
-- default case: an independent check of the expected results.

type Position = (Int, Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

-- The holes: inside the 7 by 7 square, and in the middle three columns or
-- the middle three rows.
onBoard :: Position -> Bool
onBoard (x, y) = abs x <= 3 && abs y <= 3 && (abs x <= 1 || abs y <= 1)

-- The 33 holes, by column, then by row.
holes :: [Position]
holes = [(x, y) | x <- [-3 .. 3], y <- [-3 .. 3], onBoard (x, y)]

createBoard :: Position -> Board
createBoard p
  | onBoard p = [Peg q (if q == p then W else B) | q <- holes]
  | otherwise = error "The position is not valid."

-- One step up, down, left or right.
nextTo :: Position -> Position -> Bool
nextTo (x1, y1) (x2, y2) =
  (x1 == x2 && (y1 == y2 + 1 || y2 == y1 + 1)) || (y1 == y2 && (x1 == x2 + 1 || x2 == x1 + 1))

isValidMove :: Move -> Board -> Bool
isValidMove (M p) board =
  onBoard p && Peg p B `elem` board && or [nextTo p q | Peg q W <- board]

isGoal :: Board -> Bool
isGoal board = null [p | Peg p B <- board]

showPossibleNextStates :: Board -> [State]
showPossibleNextStates board
  | isGoal board = error "No Possible States Exist."
  | otherwise = [S (M p) (map (whiten p) board) | Peg p _ <- board, isValidMove (M p) board]
  where
    whiten p (Peg q c) = Peg q (if q == p then W else c)
