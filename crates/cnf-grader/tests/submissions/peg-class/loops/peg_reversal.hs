-- Peg Reversal Game

type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

positions :: [Position]
positions = [(x,y) | x <- [-3..3], y <- [-3..3], abs x <= 1 || abs y <= 1]

createBoard :: Position -> Board
createBoard p
  | p `elem` positions = [if q == p then Peg q W else Peg q B | q <- positions]
  | otherwise = error "The position is not valid."

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) b =
  (x,y) `elem` positions && Peg (x,y) B `elem` b &&
  any (`elem` b) [Peg (x+1,y) W, Peg (x-1,y) W, Peg (x,y+1) W, Peg (x,y-1) W]

isGoal :: Board -> Bool
isGoal b = all (\(Peg _ c) -> c == W) b

-- is there a white peg to flip from? look at the pegs one by one,
-- putting each black one back at the end of the line
hasWhite :: Board -> Bool
hasWhite [] = False
hasWhite (Peg _ W : _) = True
hasWhite (p : ps) = hasWhite (ps ++ [p])

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b
  | isGoal b = error "No Possible States Exist."
  | not (hasWhite b) = []
  | otherwise = [S (M p) (flipPeg p b) | Peg p B <- b, isValidMove (M p) b]

flipPeg :: Position -> Board -> Board
flipPeg p b = [if q == p then Peg q W else Peg q c | Peg q c <- b]
