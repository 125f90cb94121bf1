-- Plain recursion, one helper per job.
dropToken :: [String] -> Int -> Char -> [String]
dropToken rows column token = go (reverse rows) False
  where
    go [] _ = []
    go (r : rs) done
      | not done && cellAt column r == '-' = reverse (replaceCell column token r : rs) ++ []
      | otherwise = go rs done ++ [r]

cellAt :: Int -> String -> Char
cellAt 0 (c : _) = c
cellAt n (_ : cs) = cellAt (n - 1) cs
cellAt _ [] = '#'

replaceCell :: Int -> Char -> String -> String
replaceCell _ _ [] = []
replaceCell 0 t (_ : cs) = t : cs
replaceCell n t (c : cs) = c : replaceCell (n - 1) t cs

tally :: Char -> [String] -> Int
tally _ [] = 0
tally t (r : rs) = countIn r + tally t rs
  where
    countIn [] = 0
    countIn (c : cs) = (if c == t then 1 else 0) + countIn cs

whoseTurn :: [String] -> Char
whoseTurn rows = if tally 'X' rows <= tally 'O' rows then 'X' else 'O'
