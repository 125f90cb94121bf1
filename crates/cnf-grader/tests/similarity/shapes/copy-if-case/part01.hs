putTile :: [String] -> Int -> Char -> [String]
putTile grid k who =
  if isFull
    then grid
    else [ if n == spot then writeAt k who line else line | (n, line) <- zip [0 ..] grid ]
  where
    isFull = null open
    open = [ n | (n, line) <- zip [0 ..] grid, line !! k == '-' ]
    spot = last open

writeAt :: Int -> Char -> String -> String
writeAt a v line = [ if b == a then v else y | (b, y) <- zip [0 ..] line ]

howMany :: Char -> [String] -> Int
howMany q grid = length [ ch | line <- grid, ch <- line, ch == q ]

blanks :: [String] -> Int
blanks grid = length (filter (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid = case howMany 'X' grid > howMany 'O' grid of
  True -> 'O'
  False -> 'X'

runAll :: [String] -> [Int] -> [String]
runAll grid ks = foldl go grid ks
  where
    go g k = putTile g k (whoNext g)
