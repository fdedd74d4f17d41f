#!/usr/bin/env bash
# require_skip.sh BUILD ROOT - a shell test whose program is missing is
# reported as skipped (exit 77 with a SKIP line), never as passed; one whose
# programs are all present goes on.
set -u
here=$(dirname "$0")
out=$(bash -c ". '$here/require.bash' sh rd-no-such-program-$$; echo went on" 2>&1)
rc=$?
[ $rc -eq 77 ] || { echo "require_skip: a missing program gave exit $rc, expected 77"; exit 1; }
[ "$out" = "SKIP: rd-no-such-program-$$ not installed" ] ||
    { echo "require_skip: unexpected output '$out'"; exit 1; }
out=$(bash -c ". '$here/require.bash' sh; echo went on" 2>&1)
[ "$out" = "went on" ] || { echo "require_skip: present programs stopped the test: '$out'"; exit 1; }
echo "require_skip: ok"
