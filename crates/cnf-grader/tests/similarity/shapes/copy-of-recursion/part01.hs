putDisc :: [String] -> Int -> Char -> [String]
putDisc grid c disc =
  let walk [] _ = []
      walk (l : ls) placed =
        if not placed && at c l == '-'
          then reverse (setCell c disc l : ls) ++ []
          else walk ls placed ++ [l]
   in walk (reverse grid) False

at :: Int -> String -> Char
at 0 (x : _) = x
at k (_ : xs) = at (k - 1) xs
at _ [] = '#'

setCell :: Int -> Char -> String -> String
setCell _ _ [] = []
setCell 0 d (_ : xs) = d : xs
setCell k d (x : xs) = x : setCell (k - 1) d xs

counted :: Char -> [String] -> Int
counted d [] = 0
counted d (l : ls) =
  let inLine [] = 0
      inLine (x : xs) = (if x == d then 1 else 0) + inLine xs
   in inLine l + counted d ls

mover :: [String] -> Char
mover grid = if counted 'X' grid <= counted 'O' grid then 'X' else 'O'
