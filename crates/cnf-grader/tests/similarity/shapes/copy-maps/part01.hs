putTile :: [String] -> Int -> Char -> [String]
putTile grid k who
  | isFull = grid
  | otherwise = map (\(n, line) -> if n == spot then writeAt k who line else line) (zip [0 ..] grid)
  where
    isFull = null open
    open = map (\(n, line) -> n) (filter (\(n, line) -> line !! k == '-') (zip [0 ..] grid))
    spot = last open

writeAt :: Int -> Char -> String -> String
writeAt a v line = map (\(b, y) -> if b == a then v else y) (zip [0 ..] line)

howMany :: Char -> [String] -> Int
howMany q grid = length (concatMap (\line -> filter (\ch -> ch == q) line) grid)

blanks :: [String] -> Int
blanks grid = length (filter (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid
  | howMany 'X' grid > howMany 'O' grid = 'O'
  | otherwise = 'X'

runAll :: [String] -> [Int] -> [String]
runAll grid ks = foldl go grid ks
  where
    go g k = putTile g k (whoNext g)
