#!/usr/bin/env bash
# scipy_verify.sh BUILD ROOT - the independent checks of the analyze golden
# files against SciPy (issue 27): tests/cases/analyze/verify.py recomputes
# every analysis's numbers from its store, compare_verify.py every
# comparison of the three compare cases (0022's expected compare.json; 0020
# and 0024 are written again here as JSON, with their cases' options).
# Skipped (77) only when SciPy is missing: `make deps` installs
# python3-scipy.
set -u
. "$(dirname "$0")/require.bash" python3
# Debian's python3-scipy is for Debian's python3 (another python3 may come
# first on PATH).
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
    echo "SKIP: SciPy not installed (python3-scipy; make deps installs it)"
    exit 77
fi
BUILD=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
A="$ROOT/tests/cases/analyze"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rundown-scipy.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # what, command...
    local what=$1; shift
    if ! out=$("$@" 2>&1); then
        echo "FAIL: $what"
        echo "$out" | tail -20
        fails=$((fails + 1))
    fi
}
check "verify.py (every analyze case)" "$PY" "$A/verify.py"
check "compare_verify.py 0022-compare-json" "$PY" "$A/compare_verify.py" \
    "$A/0022-compare-json/old.jsonl" "$A/0022-compare-json/new.jsonl" \
    "$A/0022-compare-json/expected.compare.json"
analyze="$BUILD/analyze/rundown-analyze"
if (cd "$A/0020-compare-table" &&
    "$analyze" --compare old.jsonl new.jsonl --format json -o "$tmp/c20.json"); then
    check "compare_verify.py 0020-compare-table" "$PY" "$A/compare_verify.py" \
        "$A/0020-compare-table/old.jsonl" "$A/0020-compare-table/new.jsonl" "$tmp/c20.json"
else
    echo "FAIL: rundown-analyze on 0020-compare-table"; fails=$((fails + 1))
fi
# 0024's gate fires (exit 5): the document is written all the same.
(cd "$A/0024-compare-by" &&
 "$analyze" --compare-by version=v1,v2 --fail-if-slower 10 --format json \
     -o "$tmp/c24.json" store.jsonl 2>/dev/null)
if [ -s "$tmp/c24.json" ]; then
    check "compare_verify.py 0024-compare-by" "$PY" "$A/compare_verify.py" \
        --by version=v1,v2 "$A/0024-compare-by/store.jsonl" "$tmp/c24.json"
else
    echo "FAIL: rundown-analyze on 0024-compare-by"; fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] && echo "scipy_verify: every analyze and compare case agrees with SciPy"
exit $(( fails > 0 ))
