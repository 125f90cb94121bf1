victor :: [String] -> Maybe Char
victor b
  | fourFor 'X' = Just 'X'
  | fourFor 'O' = Just 'O'
  | otherwise = Nothing
  where
    fourFor t = or [ streak t l | l <- lanes b ]

lanes :: [String] -> [String]
lanes b = b ++ downs b ++ slopes b ++ slopes (map reverse b)

downs :: [String] -> [String]
downs b = [ [ l !! j | l <- b ] | j <- [0 .. cw - 1] ]
  where
    cw = length (head b)

slopes :: [String] -> [String]
slopes b = [ [ b !! (i + s) !! (j + s) | s <- [0 .. 3] ] | i <- [0 .. ch - 4], j <- [0 .. cw - 4] ]
  where
    ch = length b
    cw = length (head b)

streak :: Char -> String -> Bool
streak t l
  | length l < 4 = False
  | take 4 l == replicate 4 t = True
  | otherwise = streak t (tail l)

tied :: [String] -> Bool
tied b = victor b == Nothing && and [ x /= '-' | x <- head b ]
