#!/bin/sh
# Says something on standard error, then dies of a segmentation fault.
echo "about to crash" >&2
kill -SEGV $$
