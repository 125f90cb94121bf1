import Prelude
import System.Environment ( getArgs )
import Data.List
import Helpers


-- Everything by row and column numbers.
cellAt :: [String] -> Int -> Int -> Char
cellAt g r c
  | r < 0 || c < 0 || r >= length g || c >= length (g !! 0) = '.'
  | otherwise = (g !! r) !! c

setCell :: [String] -> Int -> Int -> Char -> [String]
setCell g r c x = take r g ++ [take c row ++ x : drop (c + 1) row] ++ drop (r + 1) g
  where
    row = g !! r

landingRow :: [String] -> Int -> Int
landingRow g c = go 0
  where
    go r
      | r + 1 < length g && cellAt g (r + 1) c == '-' = go (r + 1)
      | otherwise = r

dropAt :: [String] -> Int -> Char -> [String]
dropAt g col x
  | cellAt g 0 c /= '-' = g
  | otherwise = setCell g (landingRow g c) c x
  where
    c = col - 1

lineFrom :: [String] -> Int -> Int -> Int -> Int -> Bool
lineFrom g r c dr dc =
  x /= '-' && x /= '.' && and [ cellAt g (r + i * dr) (c + i * dc) == x | i <- [1, 2, 3] ]
  where
    x = cellAt g r c

anyFour :: [String] -> Bool
anyFour g =
  or [ lineFrom g r c dr dc | r <- [0 .. length g - 1], c <- [0 .. length (g !! 0) - 1], (dr, dc) <- [(0, 1), (1, 0), (1, 1), (-1, 1)] ]

playerCount :: [String] -> Int
playerCount g = count 0 (concat g)
  where
    count best [] = best
    count best (x : xs)
      | x >= '1' && x <= '9' = count (max best (fromEnum x - 48)) xs
      | x >= 'a' && x <= 'z' = count (max best (fromEnum x - 87)) xs
      | otherwise = count best xs

pieceFor :: Int -> Char
pieceFor k
  | k < 10 = toEnum (k + 48)
  | otherwise = toEnum (k + 87)

runMoves :: [String] -> [Int] -> Int -> Int -> Int -> [String]
runMoves g [] _ _ _ = g
runMoves g (m : ms) player players left
  | left == 0 = g
  | anyFour g = g
  | otherwise = runMoves (dropAt g m (pieceFor player)) ms next players (left - 1)
  where
    next = if player == players then 1 else player + 1

onePlayerOneMove :: [String] -> Int -> [String]
onePlayerOneMove g m = dropAt g m '1'

onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves g ms = runMoves g ms 1 1 (length ms)

manyPlayersOneMove :: [String] -> [Int] -> [String]
manyPlayersOneMove g ms = runMoves g ms 1 n n
  where
    n = playerCount g

manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves g ms = runMoves g ms 1 (playerCount g) (length ms)

main = do
     args <- getArgs
     filename <- readFile (head args)
     (game,moves) <- readConnectFourFile filename
     print "Result"
     let result = onePlayerManyMoves game moves
     printGame result
