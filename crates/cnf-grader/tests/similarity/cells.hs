data Cell = Empty | Taken Char deriving (Eq, Show)

toCells :: [String] -> [[Cell]]
toCells = map (map (\ch -> if ch == '-' then Empty else Taken ch))

fromCells :: [[Cell]] -> [String]
fromCells = map (map shown)
  where
    shown Empty = '-'
    shown (Taken ch) = ch

-- Falls through a column given top to bottom.
fall :: Char -> [Cell] -> [Cell]
fall ch (Empty : Empty : rest) = Empty : fall ch (Empty : rest)
fall ch (Empty : rest) = Taken ch : rest
fall _ column = column

dropInto :: Int -> Char -> [[Cell]] -> [[Cell]]
dropInto col ch grid = case splitAt col (transpose grid) of
  (before, target : after) -> transpose (before ++ fall ch target : after)
  _ -> grid

owner :: [[Cell]] -> (Int, Int) -> Maybe Char
owner grid (r, c)
  | r >= 0, r < length grid, c >= 0, c < length (head grid) = case grid !! r !! c of
      Taken ch -> Just ch
      Empty -> Nothing
  | otherwise = Nothing

winnerAt :: [[Cell]] -> (Int, Int) -> Bool
winnerAt grid (r, c) = any lineOf [(0, 1), (1, 0), (1, 1), (1, -1)]
  where
    lineOf (dr, dc) = case owner grid (r, c) of
      Nothing -> False
      me -> all (\k -> owner grid (r + k * dr, c + k * dc) == me) [1 .. 3]

someoneWon :: [[Cell]] -> Bool
someoneWon grid = any (winnerAt grid) [ (r, c) | r <- [0 .. length grid - 1], c <- [0 .. length (head grid) - 1] ]

steps :: [[Cell]] -> [(Char, Int)] -> [[Cell]]
steps grid [] = grid
steps grid ((ch, col) : later) = if someoneWon grid then grid else steps (dropInto (col - 1) ch grid) later

players :: [String] -> String
players rows = [ ch | ch <- ['1' .. '9'] ++ ['a' .. 'z'], ch <= top ]
  where
    top = maximum ('0' : filter (/= '-') (concat rows))

onePlayerOneMove :: [String] -> Int -> [String]
onePlayerOneMove rows col = fromCells (dropInto (col - 1) '1' (toCells rows))

onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves rows cols = fromCells (steps (toCells rows) (map ((,) '1') cols))

manyPlayersOneMove :: [String] -> [Int] -> [String]
manyPlayersOneMove rows cols = fromCells (steps (toCells rows) (zip (players rows) cols))

manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves rows cols = fromCells (steps (toCells rows) (zip (cycle (players rows)) cols))
