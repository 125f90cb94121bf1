-- Dropping a piece and whose turn it is, with list comprehensions.
dropPiece :: [String] -> Int -> Char -> [String]
dropPiece board col player
  | full = board
  | otherwise = [ if r == target then setAt col player row else row | (r, row) <- zip [0 ..] board ]
  where
    full = null free
    free = [ r | (r, row) <- zip [0 ..] board, row !! col == '-' ]
    target = last free

setAt :: Int -> Char -> String -> String
setAt i c row = [ if j == i then c else x | (j, x) <- zip [0 ..] row ]

countPieces :: Char -> [String] -> Int
countPieces p board = length [ c | row <- board, c <- row, c == p ]

emptyCells :: [String] -> Int
emptyCells board = length (filter (== '-') (concat board))

nextPlayer :: [String] -> Char
nextPlayer board
  | countPieces 'X' board > countPieces 'O' board = 'O'
  | otherwise = 'X'

playMoves :: [String] -> [Int] -> [String]
playMoves board moves = foldl step board moves
  where
    step b c = dropPiece b c (nextPlayer b)
