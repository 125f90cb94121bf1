-- Who has four in a row: every line of the board, then every run of four.
winner :: [String] -> Maybe Char
winner board
  | wins 'X' = Just 'X'
  | wins 'O' = Just 'O'
  | otherwise = Nothing
  where
    wins p = or [ fourFrom p line | line <- allLines board ]

allLines :: [String] -> [String]
allLines board = board ++ columns board ++ diagonals board ++ diagonals (map reverse board)

columns :: [String] -> [String]
columns board = [ [ row !! c | row <- board ] | c <- [0 .. width - 1] ]
  where
    width = length (head board)

diagonals :: [String] -> [String]
diagonals board = [ [ board !! (r + i) !! (c + i) | i <- [0 .. 3] ] | r <- [0 .. h - 4], c <- [0 .. w - 4] ]
  where
    h = length board
    w = length (head board)

fourFrom :: Char -> String -> Bool
fourFrom p line
  | length line < 4 = False
  | take 4 line == replicate 4 p = True
  | otherwise = fourFrom p (tail line)

isDraw :: [String] -> Bool
isDraw board = winner board == Nothing && and [ c /= '-' | c <- head board ]
