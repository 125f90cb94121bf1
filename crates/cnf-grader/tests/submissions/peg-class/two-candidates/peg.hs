-- first try
type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

createBoard :: Position -> Board
createBoard p = [Peg (x,y) (if (x,y) == p then W else B) | x <- [-3..3], y <- [-3..3], abs x <= 1 || abs y <= 1]
