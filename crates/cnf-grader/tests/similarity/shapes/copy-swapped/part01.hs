putTile :: Char -> [String] -> Int -> [String]
putTile who grid k
  | isFull = grid
  | otherwise = [ if n == spot then writeAt line who k else line | (n, line) <- zip [0 ..] grid ]
  where
    isFull = null open
    open = [ n | (n, line) <- zip [0 ..] grid, line !! k == '-' ]
    spot = last open

writeAt :: String -> Char -> Int -> String
writeAt line v a = [ if b == a then v else y | (b, y) <- zip [0 ..] line ]

howMany :: [String] -> Char -> Int
howMany grid q = length [ ch | line <- grid, ch <- line, ch == q ]

blanks :: [String] -> Int
blanks grid = length (filter (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid
  | howMany grid 'X' > howMany grid 'O' = 'O'
  | otherwise = 'X'

runAll :: [Int] -> [String] -> [String]
runAll ks grid = foldl go grid ks
  where
    go g k = putTile (whoNext g) g k
