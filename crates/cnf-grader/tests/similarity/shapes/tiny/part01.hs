-- Only the first part, and not finished.
dropIn :: [String] -> Int -> Char -> [String]
dropIn rows col t = [ if i == 0 then take col r ++ [t] ++ drop (col + 1) r else r | (i, r) <- zip [0 ..] rows ]

count :: Char -> [String] -> Int
count t rows = length (filter (== t) (concat rows))
