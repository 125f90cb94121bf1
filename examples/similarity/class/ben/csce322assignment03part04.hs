import Prelude
import System.Environment ( getArgs )
import Data.List
import Helpers

{- section 0 -}
main = do  -- ok
          zq1v <- getArgs  -- ok
          zq2v <- readFile (head zq1v)  -- ok
          (zq3v,zq4v) <- readConnectFourFile zq2v  -- ok
          print "Result"  -- ok
          let zq5v = manyPlayersManyMoves zq3v zq4v  -- ok
          printGame zq5v  -- ok

{- section 1 -}
manyPlayersManyMoves :: [String] -> [Int] -> [String]
manyPlayersManyMoves zq6v zq7v = zq8v zq6v zq7v 1 (zq9v zq6v) (length zq7v)

{- section 2 -}
manyPlayersOneMove :: [String] -> [Int] -> [String]  -- ok
manyPlayersOneMove zq6v zq7v = zq8v zq6v zq7v 1 zq10v zq10v  -- ok
    where  -- ok
        zq10v = zq9v zq6v  -- ok

{- section 3 -}
onePlayerManyMoves :: [String] -> [Int] -> [String]
onePlayerManyMoves zq6v zq7v = zq8v zq6v zq7v 1 1 (length zq7v)

{- section 4 -}
onePlayerOneMove :: [String] -> Int -> [String]  -- ok
onePlayerOneMove zq6v zq11v = zq12v zq6v zq11v '1'  -- ok

{- section 5 -}
zq8v :: [String] -> [Int] -> Int -> Int -> Int -> [String]
zq8v zq6v [] _ _ _ = zq6v
zq8v zq6v (zq11v : zq7v) zq13v zq14v zq15v
    | zq15v == 0 = zq6v
    | zq16v zq6v = zq6v
    | otherwise = zq8v (zq12v zq6v zq11v (if zq13v < 10 then toEnum (zq13v + 48) else toEnum (zq13v + 87))) zq7v zq17v zq14v (zq15v - 1)
    where
        zq17v = if zq13v == zq14v then 1 else zq13v + 1

{- section 6 -}
zq9v :: [String] -> Int  -- ok
zq9v zq6v = zq18v 0 (concat zq6v)  -- ok
    where  -- ok
        zq18v zq19v [] = zq19v  -- ok
        zq18v zq19v (zq20v : zq21v)  -- ok
            | zq20v >= '1' && zq20v <= '9' = zq18v (max zq19v (fromEnum zq20v - 48)) zq21v  -- ok
            | zq20v >= 'a' && zq20v <= 'z' = zq18v (max zq19v (fromEnum zq20v - 87)) zq21v  -- ok
            | otherwise = zq18v zq19v zq21v  -- ok

{- section 7 -}
zq16v :: [String] -> Bool
zq16v zq6v =
    or [ zq22v zq6v zq23v zq24v zq25v zq26v | zq23v <- [0 .. length zq6v - 1], zq24v <- [0 .. length (zq6v !! 0) - 1], (zq25v, zq26v) <- [(0, 1), (1, 0), (1, 1), (-1, 1)] ]

{- section 8 -}
zq22v :: [String] -> Int -> Int -> Int -> Int -> Bool  -- ok
zq22v zq6v zq23v zq24v zq25v zq26v =  -- ok
    zq20v /= '-' && zq20v /= '.' && and [ zq27v zq6v (zq23v + zq28v * zq25v) (zq24v + zq28v * zq26v) == zq20v | zq28v <- [1, 2, 3] ]  -- ok
    where  -- ok
        zq20v = zq27v zq6v zq23v zq24v  -- ok

{- section 9 -}
zq12v :: [String] -> Int -> Char -> [String]
zq12v zq6v zq29v zq20v
    | zq27v zq6v 0 zq24v /= '-' = zq6v
    | otherwise = zq30v zq6v (zq31v zq6v zq24v) zq24v zq20v
    where
        zq24v = zq29v - 1

{- section 10 -}
zq31v :: [String] -> Int -> Int  -- ok
zq31v zq6v zq24v = zq32v 0  -- ok
    where  -- ok
        zq32v zq23v  -- ok
            | zq23v + 1 < length zq6v && zq27v zq6v (zq23v + 1) zq24v == '-' = zq32v (zq23v + 1)  -- ok
            | otherwise = zq23v  -- ok

{- section 11 -}
zq30v :: [String] -> Int -> Int -> Char -> [String]
zq30v zq6v zq23v zq24v zq20v = take zq23v zq6v ++ [take zq24v zq33v ++ zq20v : drop (zq24v + 1) zq33v] ++ drop (zq23v + 1) zq6v
    where
        zq33v = zq6v !! zq23v

{- section 12 -}
zq27v :: [String] -> Int -> Int -> Char  -- ok
zq27v zq6v zq23v zq24v  -- ok
    | zq23v < 0 || zq24v < 0 || zq23v >= length zq6v || zq24v >= length (zq6v !! 0) = '.'  -- ok
    | otherwise = (zq6v !! zq23v) !! zq24v  -- ok

{- section 13 -}
zq34v :: Int -> Int -> Bool
zq34v zq35v zq36v = if zq35v > zq36v then even zq35v else zq34v zq36v (zq35v + 1)

{- section 14 -}
zq37v :: [Int] -> [Int]  -- ok
zq37v zq38v = zipWith (+) zq38v (drop 1 zq38v) ++ [product zq38v]  -- ok

