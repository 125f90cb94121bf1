fourIn :: Char -> [String] -> Bool
fourIn d grid =
  let tall = length grid
      wide = length (head grid)
      scan i j =
        if i >= tall
          then False
          else if j >= wide then scan (i + 1) 0
          else if any (ray i j 4) [(0, 1), (1, 0), (1, 1), (1, -1)] then True
          else scan i (j + 1)
      ray _ _ 0 _ = True
      ray i j n (di, dj) =
        if i < 0 || j < 0 || i >= tall || j >= wide
          then False
          else if (grid !! i) !! j /= d then False
          else ray (i + di) (j + dj) (n - 1) (di, dj)
   in scan 0 0

outcome :: [String] -> String
outcome grid
  | fourIn 'X' grid = "X wins"
  | fourIn 'O' grid = "O wins"
  | all (notElem '-') grid = "draw"
  | otherwise = "playing"
