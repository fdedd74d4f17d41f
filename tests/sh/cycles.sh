#!/usr/bin/env bash
# cycles.sh BUILD ROOT - scripts/cycles.py, the build's check for call
# cycles between files (issue 27): the build's own libraries pass against
# scripts/cycles.allowed, and fail naming the cycle when the list lacks one
# (as a change that adds a cycle would).
set -u
. "$(dirname "$0")/require.bash" python3 nm
BUILD=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
libs=("$BUILD"/core/librd_core.a "$BUILD"/stats/librd_stats.a "$BUILD"/collect/librd_collect.a
      "$BUILD"/analyze/librd_analyze.a "$BUILD"/render/librd_render.a)
fails=0
python3 "$ROOT/scripts/cycles.py" "$ROOT/scripts/cycles.allowed" "${libs[@]}" ||
    { echo "FAIL: the libraries have a cycle scripts/cycles.allowed does not list"; fails=1; }
tmp=$(mktemp) && trap 'rm -f "$tmp"' EXIT
grep -v '^analyze/pool.c' "$ROOT/scripts/cycles.allowed" > "$tmp"
out=$(python3 "$ROOT/scripts/cycles.py" "$tmp" "${libs[@]}"); rc=$?
[ $rc -eq 1 ] && [ "$out" = "cycles: a new call cycle between files: analyze/pool.c <-> analyze/write.c" ] ||
    { echo "FAIL: an unlisted cycle: rc=$rc, '$out'"; fails=1; }
[ $fails -eq 0 ] && echo "cycles: the check passes the build and names an unlisted cycle"
exit $fails
