-- The course's template of part 3 (spec §7): what every student starts from.
-- Give it to `cnf-grader similarity --base` so that it counts as nobody's.

import Prelude
import System.Environment ( getArgs )
import Data.List
import Helpers

main = do
     args <- getArgs
     filename <- readFile (head args)
     (game,moves) <- readConnectFourFile filename
     print "Result"
     let result = manyPlayersOneMove game moves
     printGame result
