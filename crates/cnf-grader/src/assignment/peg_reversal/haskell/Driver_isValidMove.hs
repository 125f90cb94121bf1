-- | Runs one case of isValidMove: reads a pair such as
-- @(M (1,0),[Peg (0,0) W,Peg (1,0) B])@ and prints 'show' of the student's
-- answer, or the error (see 'G.runCase').
module Main (main) where

import qualified GraderInput as G
import qualified Student as S

-- | The function, at the type the assignment gives it: another type is a
-- compile error that names the function.
isValidMove :: S.Move -> [S.Peg] -> Bool
isValidMove = S.isValidMove

peg :: G.Peg -> S.Peg
peg (G.Peg position G.W) = S.Peg position S.W
peg (G.Peg position G.B) = S.Peg position S.B

move :: G.Move -> S.Move
move (G.M position) = S.M position

main :: IO ()
main = G.runCase (\(m, board) -> show (isValidMove (move m) (map peg board)))
