#!/usr/bin/env bash
# render_reliability.sh BUILD ROOT - the render trials of issue 28 that fit
# a shell test (docs/reliability.md, "Issue 28"); each check failed on the
# code before it.
set -u
BUILD=$(cd "$1" && pwd)
ROOT=$(cd "$2" && pwd)
RR=$BUILD/render/rundown-render
A=$ROOT/tests/cases/render/_data/analysis.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Item 7: a SIGKILLed render takes gnuplot with it (PR_SET_PDEATHSIG). The
# stand-in gnuplot notes its pid and hangs as a stuck gnuplot would.
cat >fake-gnuplot <<'SH'
#!/bin/sh
echo $$ >"$GP_PIDFILE"
exec sleep 30
SH
chmod +x fake-gnuplot
GP_PIDFILE=$TMP/gp.pid "$RR" --gnuplot "$TMP/fake-gnuplot" --formats md,charts -o out "$A" \
    2>/dev/null &
rr=$!
for _ in $(seq 100); do [ -s gp.pid ] && break; sleep 0.05; done
[ -s gp.pid ] || fail "pdeathsig: the stand-in gnuplot did not start"
kill -KILL $rr
wait $rr 2>/dev/null
gp=$(cat gp.pid 2>/dev/null)
for _ in $(seq 40); do [ -n "$gp" ] && kill -0 "$gp" 2>/dev/null || break; sleep 0.05; done
if [ -n "$gp" ] && kill -0 "$gp" 2>/dev/null; then
    fail "pdeathsig: gnuplot (pid $gp) outlived a SIGKILL of render"
    kill -KILL "$gp"
fi

# Stale files of other formats: a render with fewer formats into a folder
# that holds an earlier render's report removes what it does not write, and
# names it; a file that is no report output stays.
"$RR" --formats md,html,csv -o keep "$A" 2>/dev/null || fail "stale: the first render failed"
echo mine >keep/notes.txt
"$RR" --formats md -o keep "$A" 2>stale.err || fail "stale: the second render failed: $(cat stale.err)"
left=$(cd keep && ls -A | tr '\n' ' ')
[ "$left" = "notes.txt report.md " ] || fail "stale: the folder holds '$left'"
grep -q "removed from 'keep' what an earlier render with other formats left there, so it holds one report: report.html, runs.csv, summary.csv, comparisons.csv" stale.err ||
    fail "stale: the removed files are not named: $(cat stale.err)"
# The same formats again: nothing to remove, nothing said.
"$RR" --formats md -o keep "$A" 2>stale.err || fail "stale: the third render failed"
[ ! -s stale.err ] || fail "stale: a render of the same formats says: $(cat stale.err)"

# Item 8: with few open files (`ulimit -n 4` as in the issue, the
# smallest limit the binary starts at, and 8: charts need 7 besides the
# standard three) render refuses at once with a clear message and leaves
# nothing: no staging folder, no new output folder, an earlier report whole.
. "$(dirname "$0")/fewfds.bash"
for n in 4 8; do
    few_fds $n "$RR" --formats md,charts -o few "$A" >few.out 2>few.err
    rc=$?
    [ $rc -eq 3 ] || fail "ulimit -n $n: render exited $rc: $(cat few.err)"
    grep -q "cannot render: Too many open files (ulimit -n is $n); these formats need 7 open files" few.err ||
        fail "ulimit -n $n: the message does not say why: $(cat few.err)"
    [ ! -e few ] || fail "ulimit -n $n: left $(find few | tr '\n' ' ')"
done
# Markdown alone needs one: it is written at `ulimit -n 4`.
few_fds 4 "$RR" --formats md -o few "$A" >/dev/null 2>few.err ||
    fail "ulimit -n 4: markdown alone failed: $(cat few.err)"
[ -s few/report.md ] || fail "ulimit -n 4: no report.md"
# md, html, tex and csv are written on a thread beside the workbook (the
# charts before): 4 open files together (its 3 and theirs). Refused at 6,
# written at 7.
for set in "csv tex,csv summary.csv" "md md,html report.html"; do
    set -- $set
    few_fds 6 "$RR" --formats "xlsx,$1" -o fewx "$A" >few.out 2>few.err
    [ $? -eq 3 ] && grep -q "these formats need 4 open files" few.err ||
        fail "ulimit -n 6: xlsx with $1 not refused as needing 4: $(cat few.err)"
    rm -rf fewx
    few_fds 7 "$RR" --formats "xlsx,$2" -o fewx "$A" >/dev/null 2>few.err ||
        fail "ulimit -n 7: xlsx with $2 failed: $(cat few.err)"
    [ -s fewx/report.xlsx ] && [ -s "fewx/$3" ] || fail "ulimit -n 7: no report.xlsx or $3"
done
before=$(cd keep && ls -A && cat report.md | cksum)
(ulimit -n 8 && exec "$RR" --formats all -o keep "$A") >/dev/null 2>&1
[ "$(cd keep && ls -A && cat report.md | cksum)" = "$before" ] ||
    fail "ulimit -n 8: the earlier report changed: $(ls -A keep)"

[ $fails -eq 0 ] && echo "render_reliability: ok"
exit $((fails > 0))
