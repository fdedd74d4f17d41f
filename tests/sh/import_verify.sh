#!/usr/bin/env bash
# import_verify.sh BUILD ROOT - the independent checks of the import golden
# cases: each tests/cases/import-<tool>/verify.py recomputes its records
# from the raw tool output in Python, import-common/verify_judge.py the
# verdict and error rate of wrk, wrk2, hey and ab, and verify_digest.py
# every run's source.digest; all must agree with the expected.out files.
set -u
. "$(dirname "$0")/require.bash" python3
ROOT=$(cd "$2" && pwd) || exit 2
fails=0
for v in "$ROOT"/tests/cases/import-*/verify.py "$ROOT"/tests/cases/import-common/verify_judge.py \
         "$ROOT"/tests/cases/import-common/verify_digest.py; do
    if ! out=$(python3 "$v" 2>&1); then
        echo "FAIL: $v"
        echo "$out" | grep -v 'record(s) checked'
        fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ] && echo "import_verify: every import case agrees with its independent check"
exit $(( fails > 0 ))
