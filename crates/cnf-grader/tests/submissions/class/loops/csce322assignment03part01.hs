-- Sample submission (part 4 never ends on a game with six moves), part 1: written for cnf-grader's tests.

import Prelude
import System.Environment ( getArgs )
import Data.List
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

onePlayerOneMove :: [String] -> Int -> [String]
onePlayerOneMove board move = dropPiece '1' board move

main = do
     args <- getArgs
     filename <- readFile (head args)
     (game,moves) <- readConnectFourFile filename
     print "Result"
     let result = onePlayerOneMove game (head moves)
     printGame result
