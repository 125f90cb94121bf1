#!/bin/sh
# A correct program: the workspace's own part binary, found through
# $PART_BIN_DIR. Usage: correct.sh PART INPUT
exec "$PART_BIN_DIR/part$1" "$2"
