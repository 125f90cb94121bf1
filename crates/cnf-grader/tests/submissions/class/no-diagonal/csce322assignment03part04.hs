-- Sample submission (wrong rule: a four never counts diagonally), part 4: written for cnf-grader's tests.

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

-- | The directions a four can run in.
directions :: [(Int, Int)]
directions = [(0, 1), (1, 0)]

-- | Whether four cells in a line hold the same player.
hasFour :: [String] -> Bool
hasFour board = or [ fourThrough board r c | r <- [0 .. length board - 1], c <- [0 .. length (head board) - 1] ]

-- | Whether the piece at row r, column c (from 0) is part of a four.
fourThrough :: [String] -> Int -> Int -> Bool
fourThrough board r c = piece /= '-' && any longEnough directions
  where
    piece = board !! r !! c
    longEnough (dr, dc) = 1 + run dr dc + run (-dr) (-dc) >= 4
    run dr dc = length (takeWhile (== piece) [ cell (r + k * dr) (c + k * dc) | k <- [1 .. 3] ])
    cell i j
      | i >= 0 && i < length board && j >= 0 && j < length (head board) = board !! i !! j
      | otherwise = '-'

-- | Plays the moves in order, each by its player, until one makes a four
-- (a board that starts with a four is left as it is).
play :: [String] -> [(Char, Int)] -> [String]
play board moves
  | hasFour board = board
  | otherwise = go board moves
  where
    go b [] = b
    go b ((piece, column) : rest)
      | fourThrough after (landed after column) (column - 1) = after
      | otherwise = go after rest
      where
        after = dropPiece piece b column
    -- The row of the top piece of a column (a full column: row 0).
    landed b column = length (takeWhile (== '-') (map (!! (column - 1)) b))

-- | The number of players: the highest player on the board.
players :: [String] -> Int
players board = maximum (map playerNumber (concat board))

manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves board moves = play board (zip (cycle (map token [1 .. players board])) moves)

main = do
     args <- getArgs
     filename <- readFile (head args)
     (game,moves) <- readConnectFourFile filename
     print "Result"
     let result = manyPlayersManyMoves game moves
     printGame result
