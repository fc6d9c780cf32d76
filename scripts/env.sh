# Sourced by scripts/test.sh and scripts/demo.sh: numba's on-disk cache in one known place,
# outside the source tree, shared by the build step, the tests and the demo, and kept between
# runs. numba (0.68 and later) keys a source file's entries by its contents and each game's
# by a fingerprint of every source and data file it is built from, so a later run of the same
# sources (a fresh clone at the same path included) only loads, and an edit is compiled anew.
# Set NUMBA_CACHE_DIR yourself to put it elsewhere.
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/boardsim/numba}"
