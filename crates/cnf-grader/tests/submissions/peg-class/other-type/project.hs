type Position = (Int,Int)
data Color = W | B deriving (Eq, Show)
data Peg = Peg Position Color deriving (Eq, Show)
data Move = M Position deriving (Eq, Show)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show)

board :: [Position]
board = [(x,y) | x <- [-3..3], y <- [-3..3], abs x <= 1 || abs y <= 1]

createBoard :: Position -> Board
createBoard p | p `elem` board = map (\q -> if q == p then Peg q W else Peg q B) board
              | otherwise = error "The position is not valid."

isValidMove :: Move -> Board -> Bool
isValidMove (M (x,y)) b = (x,y) `elem` board && Peg (x,y) B `elem` b
                          && (Peg (x-1,y) W `elem` b || Peg (x+1,y) W `elem` b
                              || Peg (x,y-1) W `elem` b || Peg (x,y+1) W `elem` b)

-- counts the black pegs that are left: 0 means the game is won
isGoal :: Board -> Int
isGoal b = length [c | Peg _ c <- b, c == B]

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b | isGoal b == 0 = error "No Possible States Exist."
                         | otherwise = [S (M p) (white p b) | Peg p _ <- b, isValidMove (M p) b]

white :: Position -> Board -> Board
white p b = [if q == p then Peg q W else Peg q c | Peg q c <- b]
