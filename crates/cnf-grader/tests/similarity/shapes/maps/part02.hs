import qualified Data.Map as Map

-- Four in a row: from each occupied cell, look three steps in each direction.
fourAt :: Map.Map (Int, Int) Char -> (Int, Int) -> Char -> Bool
fourAt grid (r, c) t = any line [(0, 1), (1, 0), (1, 1), (1, -1)]
  where
    line (dr, dc) = all (\k -> Map.lookup (r + k * dr, c + k * dc) grid == Just t) [1 .. 3]

winnerOf :: Map.Map (Int, Int) Char -> Maybe Char
winnerOf grid =
  case [ t | ((r, c), t) <- Map.toList grid, t /= '-', fourAt grid (r, c) t ] of
    [] -> Nothing
    (t : _) -> Just t
