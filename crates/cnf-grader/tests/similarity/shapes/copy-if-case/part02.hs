champ :: [String] -> Maybe Char
champ grid =
  if hasFour 'X'
    then Just 'X'
    else if hasFour 'O' then Just 'O' else Nothing
  where
    hasFour q = or [ runOf q ln | ln <- everyLine grid ]

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

runOf :: Char -> String -> Bool
runOf q ln =
  if length ln < 4
    then False
    else if take 4 ln == replicate 4 q
      then True
      else runOf q (tail ln)

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and [ ch /= '-' | ch <- head grid ]
