each f xs = map f xs
keep = filter
size xs = length xs

putTile :: Char -> [String] -> Int -> [String]
putTile who grid k =
  let open = each (\(n, line) -> n) $ keep (\(n, line) -> (line !! k) == '-') $ zip [0 ..] grid
      isFull = null open
      spot = last open
   in if isFull then grid else each (\(n, line) -> if n == spot then writeAt line who k else line) $ zip [0 ..] grid

writeAt :: String -> Char -> Int -> String
writeAt line v a = each (\(b, y) -> if b == a then v else y) (zip [0 ..] line)

howMany :: [String] -> Char -> Int
howMany grid q = size $ concatMap (\line -> keep (\ch -> ch == q) line) grid

blanks :: [String] -> Int
blanks = size . keep (== '-') . concat

whoNext :: [String] -> Char
whoNext grid = if howMany grid 'X' > howMany grid 'O' then 'O' else 'X'

runAll :: [Int] -> [String] -> [String]
runAll ks grid =
  let go g k = putTile (whoNext g) g k
   in foldl go grid ks
