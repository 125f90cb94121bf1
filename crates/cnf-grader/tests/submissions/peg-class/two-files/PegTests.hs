module Main where

import PegGame

{- What I checked by hand:
createBoard (0,0) has one white peg, at the centre
createBoard (-2,2) is an error
-}

-- "createBoard (1,1)" should give 33 pegs
test1 :: Bool
test1 = length (createBoard (1,1)) == 33

test2 :: Bool
test2 = isValidMove (M (1,0)) [Peg (0,0) W, Peg (1,0) B]

test3 :: Bool
test3 = length (showPossibleNextStates (createBoard (0,0))) == 4

main :: IO ()
main = print [test1, test2, test3]
