putTile :: [String] -> Int -> Char -> [String]
putTile grid k who =
  let open = [ n | (n, line) <- zip [0 ..] grid, line !! k == '-' ]
      isFull = null open
      spot = last open
   in case () of
        _
          | isFull -> grid
          | otherwise -> [ if n == spot then writeAt k who line else line | (n, line) <- zip [0 ..] grid ]

writeAt :: Int -> Char -> String -> String
writeAt a v line = [ if b == a then v else y | (b, y) <- zip [0 ..] line ]

howMany :: Char -> [String] -> Int
howMany q grid = length [ ch | line <- grid, ch <- line, ch == q ]

blanks :: [String] -> Int
blanks grid = length (filter (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid
  | howMany 'X' grid > howMany 'O' grid = 'O'
  | otherwise = 'X'

runAll :: [String] -> [Int] -> [String]
runAll grid ks =
  let go g k = putTile g k (whoNext g)
   in foldl go grid ks
