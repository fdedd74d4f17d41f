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

[ $fails -eq 0 ] && echo "render_reliability: ok"
exit $((fails > 0))
