each f xs = map f xs
size xs = length xs
anyOf = or

champ :: [String] -> Maybe Char
champ grid =
  let hasFour q = anyOf $ each (\ln -> runOf ln q) $ everyLine grid
   in if hasFour 'X' then Just 'X' else if hasFour 'O' then Just 'O' else Nothing

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ (diags . each reverse $ grid)

cols :: [String] -> [String]
cols grid =
  let wide = size . head $ grid
   in each (\k -> each (\ln -> ln !! k) grid) [0 .. wide - 1]

diags :: [String] -> [String]
diags grid =
  let tall = size grid
      wide = size (head grid)
   in concatMap (\a -> each (\k -> each (\d -> (grid !! (a + d)) !! (k + d)) [0 .. 3]) [0 .. wide - 4]) [0 .. tall - 4]

runOf :: String -> Char -> Bool
runOf ln q =
  if size ln < 4
    then False
    else if take 4 ln == replicate 4 q then True else runOf (tail ln) q

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and (each (\ch -> ch /= '-') $ head grid)
