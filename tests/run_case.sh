#!/bin/sh
# run_case.sh - runs one golden end-to-end case and compares its results.
#
#   tests/run_case.sh [--update] CASE_DIR BUILD_DIR
#
# A case folder holds 'cmd' (a command line run by sh in a temporary copy of
# the folder, with the three tools on PATH and $ROOT set to the repository),
# its input files, and the expected results: expected.out (stdout),
# expected.err (stderr), expected.rc (exit code; missing = 0), and
# expected.<name> for any file <name> the command writes. A missing
# expected.out or expected.err means that stream must be empty.
# --update rewrites the expected files from the actual results: check them by
# hand against an independent source before committing.
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
# A case folder that is gone (renamed since ctest was configured) must stop
# the run: an empty case_dir would make the copy below "cp -R /." and copy
# the whole file system into the temporary folder.
case_dir=$(cd "$1" 2>/dev/null && pwd) && [ -n "$case_dir" ] && [ -f "$case_dir/cmd" ] || {
    echo "run_case.sh: '$1' is not a case folder (a folder with a 'cmd' file); re-run cmake if it was renamed" >&2
    exit 2
}
build=$(cd "$2" 2>/dev/null && pwd) && [ -n "$build" ] || {
    echo "run_case.sh: '$2' is not a build folder" >&2
    exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT
work=$(mktemp -d "${TMPDIR:-/tmp}/rundown-case.XXXXXX")
# rundown-analyze's parse cache: the case's own, never the user's.
XDG_CACHE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/rundown-case-cache.XXXXXX")
export XDG_CACHE_HOME
trap 'rm -rf "$work" "$XDG_CACHE_HOME"' EXIT INT TERM
cp -R "$case_dir/." "$work/"
cd "$work" || exit 2
PATH="$build/collect:$build/analyze:$build/render:$PATH"
export PATH
# Stable output: no colours, C locale, a fixed time zone.
NO_COLOR=1 LC_ALL=C TZ=UTC sh ./cmd >actual.out 2>actual.err
echo $? >actual.rc

fail=0
compare() { # expected actual label
    if [ -f "$1" ]; then
        if ! cmp -s "$1" "$2"; then
            echo "--- $3 differs:"
            diff -u "$1" "$2" | head -60
            fail=1
        fi
    elif [ -s "$2" ]; then
        echo "--- $3 should be empty, got:"
        head -20 "$2"
        fail=1
    fi
}

if [ $update -eq 1 ]; then
    for f in out err; do
        if [ -s actual.$f ]; then cp actual.$f "$case_dir/expected.$f"; else rm -f "$case_dir/expected.$f"; fi
    done
    if [ "$(cat actual.rc)" != 0 ]; then cp actual.rc "$case_dir/expected.rc"; else rm -f "$case_dir/expected.rc"; fi
    for e in "$case_dir"/expected.*; do
        name=${e##*/expected.}
        case $name in out|err|rc) continue ;; esac
        [ -f "$name" ] && cp "$name" "$e"
    done
    echo "updated $case_dir"
    exit 0
fi

compare expected.out actual.out stdout
compare expected.err actual.err stderr
want_rc=0
[ -f expected.rc ] && want_rc=$(cat expected.rc)
if [ "$(cat actual.rc)" != "$want_rc" ]; then
    echo "--- exit code $(cat actual.rc), expected $want_rc"
    fail=1
fi
for e in expected.*; do
    [ -f "$e" ] || continue
    name=${e#expected.}
    case $name in out|err|rc) continue ;; esac
    if [ ! -f "$name" ]; then
        echo "--- expected file '$name' was not written"
        fail=1
    else
        compare "$e" "$name" "file $name"
    fi
done
if [ $fail -ne 0 ]; then
    echo "case: $case_dir"
    echo "cmd: $(cat cmd)"
fi
exit $fail
