#!/bin/sh
# Four processes holding 40 MB each at the same time, then waiting to be
# stopped: each is well under a 128 MiB limit, together they are over it.
for i in 1 2 3 4; do
    (x=$(head -c 40000000 /dev/zero | tr '\0' a); sleep 4) &
done
wait
