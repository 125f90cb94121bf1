#!/bin/sh
# Never ends, and uses the CPU all along (until the grader kills it).
while :; do :; done
