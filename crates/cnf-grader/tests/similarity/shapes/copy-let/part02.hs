champ :: [String] -> Maybe Char
champ grid =
  let hasFour q = or [ runOf q ln | ln <- everyLine grid ]
   in case () of
        _
          | hasFour 'X' -> Just 'X'
          | hasFour 'O' -> Just 'O'
          | otherwise -> Nothing

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ diags (map reverse grid)

cols :: [String] -> [String]
cols grid =
  let wide = length (head grid)
   in [ [ ln !! k | ln <- grid ] | k <- [0 .. wide - 1] ]

diags :: [String] -> [String]
diags grid =
  let tall = length grid
      wide = length (head grid)
   in [ [ grid !! (a + d) !! (k + d) | d <- [0 .. 3] ] | a <- [0 .. tall - 4], k <- [0 .. wide - 4] ]

runOf :: Char -> String -> Bool
runOf q ln
  | length ln < 4 = False
  | take 4 ln == replicate 4 q = True
  | otherwise = runOf q (tail ln)

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and [ ch /= '-' | ch <- head grid ]
