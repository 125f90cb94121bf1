champ :: [String] -> Maybe Char
champ grid =
  let hasFour q = or (map (\ln -> runOf q ln) (everyLine grid))
   in if hasFour 'X' then Just 'X' else if hasFour 'O' then Just 'O' else Nothing

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ diags (map reverse grid)

cols :: [String] -> [String]
cols grid =
  let wide = length (head grid)
   in map (\k -> map (\ln -> ln !! k) grid) [0 .. wide - 1]

diags :: [String] -> [String]
diags grid =
  let tall = length grid
      wide = length (head grid)
   in concatMap (\a -> map (\k -> map (\d -> grid !! (a + d) !! (k + d)) [0 .. 3]) [0 .. wide - 4]) [0 .. tall - 4]

runOf :: Char -> String -> Bool
runOf q ln =
  if length ln < 4
    then False
    else if take 4 ln == replicate 4 q then True else runOf q (tail ln)

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and (map (\ch -> ch /= '-') (head grid))
