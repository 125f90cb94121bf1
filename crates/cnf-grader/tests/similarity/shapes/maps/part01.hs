import qualified Data.Map as Map

-- The board as a map from (row, column) to the token there.
type Grid = Map.Map (Int, Int) Char

toGrid :: [String] -> Grid
toGrid rows = Map.fromList [ ((r, c), t) | (r, line) <- zip [0 ..] rows, (c, t) <- zip [0 ..] line ]

fromGrid :: Int -> Int -> Grid -> [String]
fromGrid h w g = map (\r -> map (\c -> Map.findWithDefault '-' (r, c) g) [0 .. w - 1]) [0 .. h - 1]

drop1 :: Int -> Char -> [String] -> [String]
drop1 col tok rows =
  case filter (\r -> Map.lookup (r, col) grid == Just '-') [h - 1, h - 2 .. 0] of
    [] -> rows
    (r : _) -> fromGrid h w (Map.insert (r, col) tok grid)
  where
    grid = toGrid rows
    h = length rows
    w = if null rows then 0 else length (head rows)

counts :: [String] -> Map.Map Char Int
counts rows = Map.fromListWith (+) [ (t, 1) | t <- concat rows, t /= '-' ]

mover :: [String] -> Char
mover rows = if Map.findWithDefault 0 'X' cs > Map.findWithDefault 0 'O' cs then 'O' else 'X'
  where
    cs = counts rows
