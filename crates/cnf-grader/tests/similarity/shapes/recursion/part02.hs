-- Four in a row by walking every direction from every cell.
hasWon :: Char -> [String] -> Bool
hasWon t rows = search 0 0
  where
    height = length rows
    width = length (head rows)
    search r c
      | r >= height = False
      | c >= width = search (r + 1) 0
      | any (run r c 4) [(0, 1), (1, 0), (1, 1), (1, -1)] = True
      | otherwise = search r (c + 1)
    run _ _ 0 _ = True
    run r c n (dr, dc)
      | r < 0 || c < 0 || r >= height || c >= width = False
      | (rows !! r) !! c /= t = False
      | otherwise = run (r + dr) (c + dc) (n - 1) (dr, dc)

result :: [String] -> String
result rows
  | hasWon 'X' rows = "X wins"
  | hasWon 'O' rows = "O wins"
  | all (notElem '-') rows = "draw"
  | otherwise = "playing"
