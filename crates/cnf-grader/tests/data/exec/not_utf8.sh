#!/bin/sh
# Prints a result whose second line holds the byte 0xff.
printf '"Result"\n\377\n""\n'
