-- My own part one: index arithmetic on the rows.
addToken :: Int -> Char -> [String] -> [String]
addToken col t rows = case lowest of
    Nothing -> rows
    Just r -> take r rows ++ [update (rows !! r)] ++ drop (r + 1) rows
  where
    free r = (rows !! r) !! col == '-'
    lowest = foldr (\r acc -> if free r then Just r else acc) Nothing (reverse [0 .. length rows - 1])
    update row = take col row ++ [t] ++ drop (col + 1) row

nextOne :: [String] -> Char
nextOne rows = if even (length (filter (/= '-') (concat rows))) then 'X' else 'O'
