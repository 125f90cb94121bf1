#!/bin/sh
# Prints the right result except its first board row, replaced by "xxxxxx".
"$PART_BIN_DIR/part$1" "$2" | sed '2s/.*/"xxxxxx"/'
