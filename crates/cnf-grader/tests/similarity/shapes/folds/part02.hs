import Data.List (transpose, tails)

-- Runs of equal tokens counted with a fold over each line.
longestRun :: Char -> String -> Int
longestRun tok line = fst (foldl' step (0, 0) line)
  where
    step (best, cur) ch = if ch == tok then (max best (cur + 1), cur + 1) else (best, 0)
    foldl' f z xs = foldr (\x k acc -> k (f acc x)) id xs z

linesOf :: [String] -> [String]
linesOf rows = foldr (++) [] [rows, transpose rows, slants rows, slants (map reverse rows)]

slants :: [String] -> [String]
slants rows = transpose (zipWith drop [0 ..] rows) ++ transpose (zipWith drop [1 ..] (transpose rows))

won :: Char -> [String] -> Bool
won tok rows = foldr (\l acc -> acc || longestRun tok l >= 4) False (linesOf rows)
