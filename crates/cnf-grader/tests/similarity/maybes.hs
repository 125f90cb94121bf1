import Data.Maybe (fromMaybe)

-- A move may fail (a full column), so it says so with Maybe.
tryDrop :: Char -> Int -> [String] -> Maybe [String]
tryDrop p c rows =
  case length (takeWhile (== '-') column) of
    0 -> Nothing
    depth -> Just [ if r == depth - 1 then put row else row | (r, row) <- zip [0 ..] rows ]
  where
    column = map (!! (c - 1)) rows
    put row = case splitAt (c - 1) row of
      (before, _ : after) -> before ++ p : after
      (before, []) -> before

dropOrStay :: Char -> [String] -> Int -> [String]
dropOrStay p rows c = fromMaybe rows (tryDrop p c rows)

fours :: Int -> Int -> [[(Int, Int)]]
fours h w =
  [ [ (r + k * dr, c + k * dc) | k <- [0 .. 3] ]
  | r <- [0 .. h - 1], c <- [0 .. w - 1], (dr, dc) <- [(0, 1), (1, 0), (1, 1), (1, -1)]
  , inside (r + 3 * dr) (c + 3 * dc) ]
  where
    inside y x = y >= 0 && y < h && x >= 0 && x < w

hasWinner :: [String] -> Bool
hasWinner rows = any same (fours (length rows) (length (head rows)))
  where
    same cells = case map (\(r, c) -> rows !! r !! c) cells of
      (x : xs) -> x /= '-' && all (== x) xs
      [] -> False

game :: [String] -> [(Char, Int)] -> [String]
game rows moves = case moves of
  [] -> rows
  ((p, c) : rest)
    | hasWinner rows -> rows
    | otherwise -> game (dropOrStay p rows c) rest

alphabet :: String
alphabet = ['1' .. '9'] ++ ['a' .. 'z']

playerTokens :: [String] -> String
playerTokens rows = take last alphabet
  where
    last = maximum (0 : [ i | (i, t) <- zip [1 ..] alphabet, t `elem` concat rows ])

onePlayerOneMove :: [String] -> Int -> [String]
onePlayerOneMove rows m = dropOrStay '1' rows m

onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves rows ms = game rows [ ('1', m) | m <- ms ]

manyPlayersOneMove :: [String] -> [Int] -> [String]
manyPlayersOneMove rows ms = game rows (zip (playerTokens rows) ms)

manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves rows ms = game rows (zip (cycle (playerTokens rows)) ms)
