#!/bin/sh
# Prints without end.
yes
