#!/usr/bin/env bash
# cycles.sh BUILD ROOT - scripts/cycles.py, the build's check for call
# cycles between files (issue 27): the build's own libraries pass against
# scripts/cycles.allowed, and fail naming the cycle when the list lacks one
# (as a change that adds a cycle would).
set -u
. "$(dirname "$0")/require.bash" python3 nm ar cc
BUILD=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
libs=("$BUILD"/core/librd_core.a "$BUILD"/stats/librd_stats.a "$BUILD"/collect/librd_collect.a
      "$BUILD"/analyze/librd_analyze.a "$BUILD"/render/librd_render.a)
fails=0
python3 "$ROOT/scripts/cycles.py" "$ROOT/scripts/cycles.allowed" "${libs[@]}" ||
    { echo "FAIL: the libraries have a cycle scripts/cycles.allowed does not list"; fails=1; }
# No cycle is left between the build's files (scripts/cycles.allowed is
# empty): a library of two files that call each other stands for the
# change that would add one.
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
printf 'int fb(int);\nint fa(int x) { return x ? fb(x - 1) : 0; }\n' > "$tmp/a.c"
printf 'int fa(int);\nint fb(int x) { return x ? fa(x - 1) : 1; }\n' > "$tmp/b.c"
(cd "$tmp" && ${CC:-cc} -c a.c -o a.c.o && ${CC:-cc} -c b.c -o b.c.o && ar rcs librd_demo.a a.c.o b.c.o) ||
    { echo "FAIL: could not build the two-file library"; exit 1; }
out=$(python3 "$ROOT/scripts/cycles.py" "$ROOT/scripts/cycles.allowed" "${libs[@]}" "$tmp/librd_demo.a"); rc=$?
[ $rc -eq 1 ] && [ "$out" = "cycles: a new call cycle between files: demo/a.c <-> demo/b.c" ] ||
    { echo "FAIL: an unlisted cycle: rc=$rc, '$out'"; fails=1; }
[ $fails -eq 0 ] && echo "cycles: the check passes the build and names an unlisted cycle"
exit $fails
