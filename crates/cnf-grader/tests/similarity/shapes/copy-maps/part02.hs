champ :: [String] -> Maybe Char
champ grid
  | hasFour 'X' = Just 'X'
  | hasFour 'O' = Just 'O'
  | otherwise = Nothing
  where
    hasFour q = or (map (\ln -> runOf q ln) (everyLine grid))

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ diags (map reverse grid)

cols :: [String] -> [String]
cols grid = map (\k -> map (\ln -> ln !! k) grid) [0 .. wide - 1]
  where
    wide = length (head grid)

diags :: [String] -> [String]
diags grid = concatMap (\a -> map (\k -> map (\d -> grid !! (a + d) !! (k + d)) [0 .. 3]) [0 .. wide - 4]) [0 .. tall - 4]
  where
    tall = length grid
    wide = length (head grid)

runOf :: Char -> String -> Bool
runOf q ln
  | length ln < 4 = False
  | take 4 ln == replicate 4 q = True
  | otherwise = runOf q (tail ln)

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and (map (\ch -> ch /= '-') (head grid))
