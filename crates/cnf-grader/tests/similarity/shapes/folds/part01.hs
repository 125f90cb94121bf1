import Data.List (foldl')

-- Everything is a fold.
place :: Char -> Int -> [String] -> [String]
place tok col rows = snd (foldr visit (False, []) rows)
  where
    visit row (done, acc)
      | done = (True, row : acc)
      | row !! col == '-' = (True, put row : acc)
      | otherwise = (False, row : acc)
    put row = snd (foldr (\ch (k, out) -> (k - 1, (if k == col then tok else ch) : out)) (length row - 1, []) row)

pieces :: Char -> [String] -> Int
pieces tok = foldl' (\n row -> foldl' (\m ch -> if ch == tok then m + 1 else m) n row) 0

turn :: [String] -> Char
turn rows = foldr pick 'X' [pieces 'X' rows - pieces 'O' rows]
  where
    pick d _ = if d > 0 then 'O' else 'X'

replay :: [String] -> [Int] -> [String]
replay = foldl' (\rows col -> place (turn rows) col rows)
