each f xs = map f xs
keep = filter
size xs = length xs
pairUp = zip
lastOf = last

putTile :: [String] -> Int -> Char -> [String]
putTile grid k who
  | isFull = grid
  | otherwise = [ if n == spot then writeAt k who line else line | (n, line) <- pairUp [0 ..] grid ]
  where
    isFull = null open
    open = [ n | (n, line) <- pairUp [0 ..] grid, line !! k == '-' ]
    spot = lastOf open

writeAt :: Int -> Char -> String -> String
writeAt a v line = [ if b == a then v else y | (b, y) <- pairUp [0 ..] line ]

howMany :: Char -> [String] -> Int
howMany q grid = size [ ch | line <- grid, ch <- line, ch == q ]

blanks :: [String] -> Int
blanks grid = size (keep (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid
  | howMany 'X' grid > howMany 'O' grid = 'O'
  | otherwise = 'X'

runAll :: [String] -> [Int] -> [String]
runAll grid ks = foldl go grid ks
  where
    go g k = putTile g k (whoNext g)
