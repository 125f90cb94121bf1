import Data.List (findIndex, transpose)
import Data.Maybe (fromMaybe)

-- Point-free where it reads well.
landing :: Int -> [String] -> Maybe Int
landing col = fmap pred . findIndex (/= '-') . (++ "#") . (!! col) . transpose

insertAt :: Int -> a -> [a] -> [a]
insertAt i x = uncurry (++) . fmap ((x :) . drop 1) . splitAt i

play :: Char -> Int -> [String] -> [String]
play tok col rows = maybe rows (\r -> insertAt r (insertAt col tok (rows !! r)) rows) (landing col rows >>= keep)
  where
    keep r = if r < 0 then Nothing else Just r

score :: Char -> [String] -> Int
score tok = length . filter (== tok) . concat

toMove :: [String] -> Char
toMove = fromMaybe 'X' . lookup True . flip zip "OX" . sequence [uncurry (>) . both, const True]
  where
    both rows = (score 'X' rows, score 'O' rows)
