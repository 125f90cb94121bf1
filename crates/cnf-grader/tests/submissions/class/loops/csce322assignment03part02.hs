-- Sample submission (part 4 never ends on a game with six moves), part 2: written for cnf-grader's tests.

import Data.List (transpose)
import System.Environment (getArgs)
import Helpers

-- | The token of player n: 1-9, then a-z for players 10-35.
token :: Int -> Char
token n
  | n <= 9 = toEnum (fromEnum '0' + n)
  | otherwise = toEnum (fromEnum 'a' + n - 10)

-- | The number of the player owning a cell, 0 for an empty cell.
playerNumber :: Char -> Int
playerNumber c
  | c >= '1' && c <= '9' = fromEnum c - fromEnum '0'
  | c >= 'a' && c <= 'z' = fromEnum c - fromEnum 'a' + 10
  | otherwise = 0

-- | Drops a piece into a column (1 = leftmost); a full column stays as it is.
dropPiece :: Char -> [String] -> Int -> [String]
dropPiece piece board column
  | empties == 0 = board
  | otherwise = [ if r == empties - 1 then place row else row | (r, row) <- zip [0 ..] board ]
  where
    empties = length (takeWhile (== '-') (map (!! (column - 1)) board))
    place row = take (column - 1) row ++ [piece] ++ drop column row

-- | Whether four cells in a line hold the same player.
hasFour :: [String] -> Bool
hasFour board = any fourInLine (board ++ transpose board ++ diagonals board ++ diagonals (map reverse board))
  where
    -- The diagonals are the columns of the board with row i shifted right by i.
    diagonals rows = transpose [ replicate i '-' ++ row ++ replicate (length rows - 1 - i) '-'
                               | (i, row) <- zip [0 ..] rows ]

-- | Whether a line holds four equal player cells in a row.
fourInLine :: String -> Bool
fourInLine (a : b : c : d : rest) = (a /= '-' && all (== a) [b, c, d]) || fourInLine (b : c : d : rest)
fourInLine _ = False

-- | Plays the moves in order, each by its player, stopping before a move
-- when the board has a four.
play :: [String] -> [(Char, Int)] -> [String]
play board [] = board
play board ((piece, column) : rest)
  | hasFour board = board
  | otherwise = play (dropPiece piece board column) rest

-- | The number of players: the highest player on the board.
players :: [String] -> Int
players board = maximum (map playerNumber (concat board))

onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves board moves = play board [ ('1', m) | m <- moves ]

main :: IO ()
main = do
  [file] <- getArgs
  (board, moves) <- readGameFile file
  printResult (onePlayerManyMoves board moves)
