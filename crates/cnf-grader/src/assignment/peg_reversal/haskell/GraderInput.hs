-- | The grader's side of a Peg Reversal driver: the assignment's types as
-- the grader writes them on standard input (mirrors that derive 'Read', so
-- no driver needs a 'Read' instance of the student's types, and a student
-- who derives one clashes with nothing), and 'runCase', which reads the
-- arguments, calls the function and prints what happened in one line.
--
-- Only base, as GHC 8.8.4 to 9.x ship it.
module GraderInput
  ( Color (..)
  , Peg (..)
  , Move (..)
  , runCase
  ) where

import Control.Exception (ErrorCall (..), SomeException, displayException, evaluate, fromException, try)
import Data.Char (isSpace)
import System.Exit (ExitCode (..), exitWith)
import System.IO (BufferMode (..), hFlush, hPutStrLn, hSetBuffering, hSetEncoding, stderr, stdout, utf8)

-- | The colour of a peg, as the grader writes it.
data Color = W | B deriving (Read, Show)

-- | A peg, as the grader writes it.
data Peg = Peg (Int, Int) Color deriving (Read, Show)

-- | A move, as the grader writes it.
data Move = M (Int, Int) deriving (Read, Show)

-- | Reads the arguments (one value in 'show' syntax) from standard input,
-- applies @call@ (the student's function and 'show' of its result) and
-- prints one line: the text, forced whole before any of it is printed;
-- @error "MSG"@ when the call raises an 'ErrorCall' with MSG (written as a
-- Haskell string literal); @exception "WHAT"@ for any other exception.
-- Exits 0 in these three cases. Input that does not read is the grader's
-- fault, not the student's: a line on standard error and exit code 3.
runCase :: Read a => (a -> String) -> IO ()
runCase call = do
  hSetBuffering stdout (BlockBuffering Nothing)
  hSetEncoding stdout utf8
  text <- getContents
  case [x | (x, rest) <- reads text, all isSpace rest] of
    [x] -> do
      result <- try (evaluate (forced (call x)))
      line <- case result of
        Right shown -> return shown
        Left e -> describe e
      putStr line
      putStr "\n"
      hFlush stdout
    _ -> do
      hPutStrLn stderr ("grader input does not read: " ++ show text)
      exitWith (ExitFailure 3)

-- | The string with every character evaluated, so an error anywhere in it
-- is raised before anything is printed.
forced :: String -> String
forced s = foldr seq () s `seq` s

-- | The line for an exception. Its message is forced here too: a message
-- that itself raises an exception is said in a fixed text instead.
describe :: SomeException -> IO String
describe e = do
  let line = case fromException e of
        Just (ErrorCall msg) -> "error " ++ show msg
        Nothing -> "exception " ++ show (displayException e)
  shown <- try (evaluate (forced line)) :: IO (Either SomeException String)
  return (either (const "exception \"an exception whose message raises an exception\"") id shown)
