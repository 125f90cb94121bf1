#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# It installs what grading needs: GHC for the students' Haskell, bubblewrap
# and util-linux for the sandbox, and the grader itself, shipped prebuilt in
# the autograder zip as bin/cnf-grader (`cargo xtask gradescope-kit`; see
# README.md beside this file).
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
# With AUTOGRADER_ROOT set (a trial on your own machine, the tests), nothing
# is written outside it: the grader goes to $AUTOGRADER_ROOT/bin, where
# run_autograder looks for it, and apt-get is not run (install GHC and
# bubblewrap yourself). On Gradescope it is unset: /usr/local/bin, and apt.
if [ -n "${AUTOGRADER_ROOT:-}" ]; then
    bin="$root/bin"
    mkdir -p "$bin"
else
    bin=/usr/local/bin
fi
if [ -z "${AUTOGRADER_ROOT:-}" ] && [ -z "${CNF_GRADER_SKIP_APT:-}" ]; then
    apt-get update -qq
    apt-get install -y -qq ghc bubblewrap util-linux
fi
install -m 0755 "$root/source/bin/cnf-grader" "$bin/cnf-grader"
# The fixtures (with their .solution files) are root's alone: no program a
# student wrote, whatever user it runs as, may read them. run_autograder
# does it again at each run, with the results folder.
chown -R root:root "$root/source" 2>/dev/null || true
chmod -R go-rwx "$root/source"
# Check that the grader runs on this image (glibc, architecture) now, not
# at the first student's submission.
"$bin/cnf-grader" --version
