-- | Runs one case of showPossibleNextStates: reads a board such as
-- @[Peg (0,0) W,Peg (1,0) B]@ and prints 'show' of the student's list of
-- states, or the error (see 'G.runCase').
module Main (main) where

import qualified GraderInput as G
import qualified Student as S

-- | The function, at the type the assignment gives it: another type is a
-- compile error that names the function.
showPossibleNextStates :: [S.Peg] -> [S.State]
showPossibleNextStates = S.showPossibleNextStates

peg :: G.Peg -> S.Peg
peg (G.Peg position G.W) = S.Peg position S.W
peg (G.Peg position G.B) = S.Peg position S.B

main :: IO ()
main = G.runCase (\board -> show (showPossibleNextStates (map peg board)))
