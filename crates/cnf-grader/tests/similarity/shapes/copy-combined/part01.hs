putTile :: [String] -> Int -> Char -> [String]
putTile grid k who =
  let open = map (\(n, line) -> n) (filter (\(n, line) -> line !! k == '-') (zip [0 ..] grid))
      isFull = null open
      spot = last open
   in if isFull then grid else map (\(n, line) -> if n == spot then writeAt k who line else line) (zip [0 ..] grid)

writeAt :: Int -> Char -> String -> String
writeAt a v line = map (\(b, y) -> if b == a then v else y) (zip [0 ..] line)

howMany :: Char -> [String] -> Int
howMany q grid = length (concatMap (\line -> filter (\ch -> ch == q) line) grid)

blanks :: [String] -> Int
blanks grid = length (filter (== '-') (concat grid))

whoNext :: [String] -> Char
whoNext grid = if howMany 'X' grid > howMany 'O' grid then 'O' else 'X'

runAll :: [String] -> [Int] -> [String]
runAll grid ks =
  let go g k = putTile g k (whoNext g)
   in foldl go grid ks
