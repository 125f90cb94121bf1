-- Peg Reversal Game
-- Flip every peg of the + board to white, one black neighbour of a white
-- peg at a time. Load this file in WinHugs and try:
--   createBoard (0,0)
--   showPossibleNextStates (createBoard (0,0))

type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

-- all the holes of the board, column by column
validPositions :: [Position]
validPositions = [(-3,-1),(-3,0),(-3,1),(-2,-1),(-2,0),(-2,1),
                  (-1,-3),(-1,-2),(-1,-1),(-1,0),(-1,1),(-1,2),(-1,3),
                  (0,-3),(0,-2),(0,-1),(0,0),(0,1),(0,2),(0,3),
                  (1,-3),(1,-2),(1,-1),(1,0),(1,1),(1,2),(1,3),
                  (2,-1),(2,0),(2,1),
                  (3,-1),(3,0),(3,1)]

createBoard :: Position -> Board
createBoard p = if elem p validPositions then helper p validPositions
                else error "The position is not valid."

helper :: Position -> [Position] -> Board
helper _ [] = []
helper p (x:xs) | p == x = Peg x W : helper p xs
                | otherwise = Peg x B : helper p xs

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) board = elem (x,y) validPositions
                              && elem (Peg (x,y) B) board
                              && hasWhiteNeighbour (x,y) board

hasWhiteNeighbour :: Position -> Board -> Bool
hasWhiteNeighbour (x,y) board = elem (Peg (x+1,y) W) board || elem (Peg (x-1,y) W) board
                                || elem (Peg (x,y+1) W) board || elem (Peg (x,y-1) W) board

isGoal :: Board -> Bool
isGoal [] = True
isGoal (Peg _ B : _) = False
isGoal (_ : rest) = isGoal rest

showPossibleNextStates :: Board -> [State]
showPossibleNextStates board
  | isGoal board = error "No Possible States Exist."
  | otherwise = getStates board board

getStates :: Board -> Board -> [State]
getStates _ [] = []
getStates board (Peg p _ : rest)
  | isValidMove (M p) board = S (M p) (flipPeg p board) : getStates board rest
  | otherwise = getStates board rest

flipPeg :: Position -> Board -> Board
flipPeg _ [] = []
flipPeg p (Peg q c : rest) | p == q = Peg q W : rest
                           | otherwise = Peg q c : flipPeg p rest
