champ :: [String] -> Maybe Char
champ grid
  | hasFour 'X' = Just 'X'
  | hasFour 'O' = Just 'O'
  | otherwise = Nothing
  where
    hasFour q = or [ runOf ln q | ln <- everyLine grid ]

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ diags (map reverse grid)

cols :: [String] -> [String]
cols grid = [ [ ln !! k | ln <- grid ] | k <- [0 .. wide - 1] ]
  where
    wide = length (head grid)

diags :: [String] -> [String]
diags grid = [ [ grid !! (a + d) !! (k + d) | d <- [0 .. 3] ] | a <- [0 .. tall - 4], k <- [0 .. wide - 4] ]
  where
    tall = length grid
    wide = length (head grid)

runOf :: String -> Char -> Bool
runOf ln q
  | length ln < 4 = False
  | take 4 ln == replicate 4 q = True
  | otherwise = runOf (tail ln) q

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and [ ch /= '-' | ch <- head grid ]
