import Data.Char (isDigit, digitToInt)

type Board = [String]

-- | Put token t into column col (counting from 1).
move :: Board -> (Char, Int) -> Board
move rows (t, col) = case break (\r -> r !! i /= '-') rows of
    ([], _) -> rows
    (above, below) -> init above ++ [replace (last above)] ++ below
  where
    i = col - 1
    replace r = zipWith (\j ch -> if j == i then t else ch) [0 ..] r

windows4 :: [a] -> [[a]]
windows4 xs = [ take 4 ys | ys <- tails xs, length ys >= 4 ]

fourSame :: String -> Bool
fourSame w = case w of
    (x : rest) -> x /= '-' && all (== x) rest
    [] -> False

allLines :: Board -> [String]
allLines rows = rows ++ transpose rows ++ diag rows ++ diag (reverse rows)
  where
    diag rs = transpose (zipWith drop [0 ..] rs) ++ transpose (zipWith drop [1 ..] (transpose rs))

finished :: Board -> Bool
finished rows = any fourSame (concatMap windows4 (allLines rows))

playAll :: Board -> [(Char, Int)] -> Board
playAll start = snd . foldl step (finished start, start)
  where
    step (True, b) _ = (True, b)
    step (False, b) m = let b' = move b m in (finished b', b')

numberOf :: Char -> Int
numberOf ch
  | isDigit ch = digitToInt ch
  | ch == '-' = 0
  | otherwise = fromEnum ch - fromEnum 'a' + 10

symbol :: Int -> Char
symbol k = ("123456789" ++ ['a' .. 'z']) !! (k - 1)

howMany :: Board -> Int
howMany = maximum . map numberOf . concat

onePlayerOneMove :: Board -> Int -> Board
onePlayerOneMove rows ms = move rows ('1', ms)

onePlayerManyMoves :: Board -> [Int] -> Board
onePlayerManyMoves rows ms = playAll rows (zip (repeat '1') ms)

manyPlayersOneMove :: Board -> [Int] -> Board
manyPlayersOneMove rows ms = playAll rows (zip (map symbol [1 .. howMany rows]) ms)

manyPlayersManyMoves :: Board -> [Int] -> Board
manyPlayersManyMoves rows ms = playAll rows (zip (concat (repeat (map symbol [1 .. howMany rows]))) ms)
