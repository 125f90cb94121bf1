import Prelude
import System.Environment ( getArgs )
import Data.List
import Helpers


-- Columns are easier to work with than rows: turn the board on its side.
columnsOf :: [String] -> [String]
columnsOf = transpose

-- Put a piece on top of a column (given top to bottom); a full column is unchanged.
stack :: Char -> String -> String
stack piece col =
  let (air, ground) = span (== '-') col
  in if null air then col else init air ++ [piece] ++ ground

play1 :: Char -> [String] -> Int -> [String]
play1 piece board n =
  transpose [ if i == n then stack piece c else c | (i, c) <- zip [1 ..] (columnsOf board) ]

-- Every line a four can lie on: rows, columns and both diagonals.
lanes :: [String] -> [String]
lanes board = board ++ columnsOf board ++ diagonals board ++ diagonals (map reverse board)

diagonals :: [String] -> [String]
diagonals board =
  [ [ board !! (r + k) !! (c + k) | k <- [0 .. min (height - r) (width - c) - 1] ]
  | r <- [0 .. height - 1], c <- [0 .. width - 1], r == 0 || c == 0 ]
  where
    height = length board
    width = length (head board)

fourInLane :: String -> Bool
fourInLane lane = any (\g -> head g /= '-' && length g >= 4) (group lane)

won :: [String] -> Bool
won board = any fourInLane (lanes board)

turns :: [String] -> [(Char, Int)] -> [String]
turns board [] = board
turns board ((p, n) : more)
  | won board = board
  | otherwise = turns (play1 p board n) more

digitValue :: Char -> Int
digitValue ch
  | ch >= '0' && ch <= '9' = fromEnum ch - fromEnum '0'
  | otherwise = fromEnum ch - fromEnum 'a' + 10

highest :: [String] -> Int
highest board = maximum (0 : [ digitValue ch | ch <- concat board, ch /= '-' ])

tokenOf :: Int -> Char
tokenOf i = if i < 10 then toEnum (fromEnum '0' + i) else toEnum (fromEnum 'a' + i - 10)

onePlayerOneMove :: [String] -> Int -> [String]
onePlayerOneMove board n = play1 '1' board n

onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves board ns = turns board (map (\n -> ('1', n)) ns)

manyPlayersOneMove :: [String] -> [Int] -> [String]
manyPlayersOneMove board ns = turns board (zip (map tokenOf [1 .. highest board]) ns)

manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves board ns = turns board (zip (cycle (map tokenOf [1 .. highest board])) ns)

main = do
     args <- getArgs
     filename <- readFile (head args)
     (game,moves) <- readConnectFourFile filename
     print "Result"
     let result = manyPlayersOneMove game moves
     printGame result
