#!/bin/sh
# Fails like a Haskell program that called error.
echo "prog: Prelude.head: empty list" >&2
exit 3
