import Data.List (isInfixOf, transpose)

-- Four in a row: is "XXXX" part of some line?
linesAll :: [String] -> [String]
linesAll = concat . sequence [id, transpose, diags, diags . map reverse]
  where
    diags = transpose . zipWith drop [0 ..] <> transpose . zipWith drop [1 ..] . transpose

fourOf :: Char -> [String] -> Bool
fourOf tok = any (replicate 4 tok `isInfixOf`) . linesAll

champion :: [String] -> Maybe Char
champion rows = lookup True (map (\t -> (fourOf t rows, t)) "XO")
