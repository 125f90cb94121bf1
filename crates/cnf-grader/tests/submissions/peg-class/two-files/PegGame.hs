module PegGame where

-- Peg Reversal: the game's types and the four functions.
-- My tests are in PegTests.hs (load that one to run them).

type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

holes :: [Position]
holes = [(x,y) | x <- [-3..3], y <- [-3..3], (abs x <= 1) || (abs y <= 1)]

createBoard :: Position -> Board
createBoard p
  | notElem p holes = error "The position is not valid."
  | otherwise = [Peg q (if q == p then W else B) | q <- holes]

adjacent :: Position -> Position -> Bool
adjacent (a,b) (c,d) = (a == c && abs (b - d) == 1) || (b == d && abs (a - c) == 1)

isValidMove :: Move -> Board -> Bool
isValidMove (M p) board = elem p holes && elem (Peg p B) board
                          && not (null [q | Peg q W <- board, adjacent p q])

isGoal :: Board -> Bool
isGoal board = null [p | Peg p B <- board]

showPossibleNextStates :: Board -> [State]
showPossibleNextStates board
  | isGoal board = error "No Possible States Exist."
  | otherwise = [S (M p) (flipTo p board) | Peg p B <- board, isValidMove (M p) board]

flipTo :: Position -> Board -> Board
flipTo p board = [if q == p then Peg q W else Peg q c | Peg q c <- board]
