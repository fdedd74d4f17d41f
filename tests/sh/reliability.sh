#!/usr/bin/env bash
# reliability.sh BUILD ROOT - the collect-side trials of issue 28 that fit a
# short shell test (docs/reliability.md, "Issue 28"): each check failed on
# the code before it.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"

# Item 4: -w NAME is kept whole: two names sharing their first 255 bytes
# stay two workloads (import -w never cut them).
long=$(printf 'w%.0s' $(seq 300))
"$RC" run -q -n 1 -w "${long}1" -o long.jsonl -- true || fail "long name: run 1"
"$RC" run -q -n 1 -w "${long}2" -o long.jsonl -- true || fail "long name: run 2"
check long.jsonl "long -w kept whole" \
    "sorted(r['workload'] for r in recs) == ['w'*300+'1', 'w'*300+'2']"

# Item 10: 60 Cyrillic letters escape to 360 bytes: the log folder gets a
# shortened name with a hash, the record keeps the full name.
cyr=$(python3 -c "print('я'*60)")
"$RC" run -q -n 1 -w "${cyr}a" --log-dir logs -o cyr.jsonl -- echo hi 2>err.txt ||
    { fail "non-ASCII name: run"; cat err.txt; }
"$RC" run -q -n 1 -w "${cyr}b" --log-dir logs -o cyr.jsonl -- echo hi 2>>err.txt ||
    { fail "non-ASCII name: run b"; cat err.txt; }
check cyr.jsonl "non-ASCII names kept" \
    "sorted(r['workload'] for r in recs) == ['я'*60+'a', 'я'*60+'b']"
[ "$(ls logs 2>/dev/null | grep -c "^%D1")" -eq 2 ] || { fail "non-ASCII name: two log folders"; ls logs; }
for f in logs/*; do
    [ "$(basename "$f" | wc -c)" -le 200 ] || fail "non-ASCII name: folder name too long: $f"
done

# Item 12: a summary lost to a full device is an error (exit 3), as a
# failed --export-json is.
"$RC" run -n 2 -w w -o full.jsonl -- true >/dev/full 2>err.txt
rc=$?
[ $rc -eq 3 ] || { fail "lost summary: exit $rc, expected 3"; cat err.txt; }
grep -q 'could not write the summary' err.txt || { fail "lost summary: message"; cat err.txt; }

finish reliability
