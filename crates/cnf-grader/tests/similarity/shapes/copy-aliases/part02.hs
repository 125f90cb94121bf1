anyOf = or
each f xs = map f xs
size xs = length xs
firstOf xs = head xs
grab n xs = take n xs
copies = replicate
rest = tail

champ :: [String] -> Maybe Char
champ grid
  | hasFour 'X' = Just 'X'
  | hasFour 'O' = Just 'O'
  | otherwise = Nothing
  where
    hasFour q = anyOf [ runOf q ln | ln <- everyLine grid ]

everyLine :: [String] -> [String]
everyLine grid = grid ++ cols grid ++ diags grid ++ diags (each reverse grid)

cols :: [String] -> [String]
cols grid = [ [ ln !! k | ln <- grid ] | k <- [0 .. wide - 1] ]
  where
    wide = size (firstOf grid)

diags :: [String] -> [String]
diags grid = [ [ grid !! (a + d) !! (k + d) | d <- [0 .. 3] ] | a <- [0 .. tall - 4], k <- [0 .. wide - 4] ]
  where
    tall = size grid
    wide = size (firstOf grid)

runOf :: Char -> String -> Bool
runOf q ln
  | size ln < 4 = False
  | grab 4 ln == copies 4 q = True
  | otherwise = runOf q (rest ln)

drawn :: [String] -> Bool
drawn grid = champ grid == Nothing && and [ ch /= '-' | ch <- firstOf grid ]
