-- | The default helper module of the Connect Four assignment (spec §7),
-- used by `cnf-grader submission` when a submission brings no Helpers.hs.
--
-- A part's main reads the game named by its first argument and prints the
-- result in the .solution format (spec §5):
--
-- > main :: IO ()
-- > main = do
-- >   [file] <- getArgs
-- >   (board, moves) <- readGameFile file
-- >   printResult (onePlayerOneMove board (head moves))
--
-- or, with the two basic helpers only:
--
-- > main = do
-- >   [file] <- getArgs
-- >   text <- readFile file
-- >   let (board, moves) = readGame text
-- >   print "Result"
-- >   printGame (onePlayerOneMove board (head moves))
module Helpers
  ( readGame
  , readGameFile
  , printGame
  , printResult
  ) where

-- | The game in a .cnf file's text: the rows of the board, top to bottom,
-- and the moves, read with Haskell's 'read'.
readGame :: String -> ([String], [Int])
readGame = read

-- | The game in the file at this path; a file that is not a game stops the
-- program with an error (as the course harness's 'readIO' did).
readGameFile :: FilePath -> IO ([String], [Int])
readGameFile path = readFile path >>= readIO

-- | Prints each row of a board with 'print', then @""@.
printGame :: [String] -> IO ()
printGame rows = mapM_ print rows >> print ""

-- | Prints a whole result: @"Result"@, then 'printGame'.
printResult :: [String] -> IO ()
printResult rows = print "Result" >> printGame rows
