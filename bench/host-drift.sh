#!/usr/bin/env bash
# bench/host-drift.sh - does any probe see what moves the HTTP servers?
#
#   bench/host-drift.sh [BUILD]     (DURATION seconds, default 600;
#                                    PYTHON, default /usr/bin/python3)
#
# The studies of 2026-12-03 (docs/workloads.md, "The suites") saw every
# HTTP server's throughput move together by the minute, up to 2x, while
# the contention guard, steal and the speed probe saw nothing. This script
# looks for a probe that does: one Hono server on deno (the suite's hono
# workload, pinned to CPU 1 as the suite pins it) stays up, and every few
# seconds, in turn,
#   1. bench/host_probe.c times a cross-CPU pipe ping-pong, a system call,
#      page faults and the multiply-add chain (see its header);
#   2. wrk -t1 -c100 -d3s on CPU 0 loads the server (req/s).
# It prints one row per round and, at the end, each probe's Spearman rank
# correlation with req/s (SciPy) and its range. A probe worth adding to the
# collector moves with req/s (|rho| well above what 0 would give, the p
# value beside it) over a range the HTTP figures move too. It runs only on
# a quiet machine (rundown-collect check passes first), for long enough to see
# the host change: the swings came every few minutes to hours.
# Traffic goes to 127.0.0.1 only; the server is stopped by its own id.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
DURATION=${DURATION:-600}
# Debian's python3 has SciPy (python3-scipy); another python3 may come first.
PY=${PYTHON:-/usr/bin/python3}
PORT=${PORT:-18717}
W=$ROOT/data/workloads
DENO=$W/node_modules/.bin/deno
for tool in wrk taskset curl "$PY"; do
    command -v $tool >/dev/null || { echo "bench/host-drift.sh: needs $tool" >&2; exit 3; }
done
[ -x "$DENO" ] || { echo "bench/host-drift.sh: no $DENO (make deps)" >&2; exit 3; }
# Another program's CPU would read as the host's: refuse a busy machine
# (BUSY_OK=1 runs anyway, say so beside the figures).
"$BUILD/collect/rundown-collect" check --window 5 >&2 || [ "${BUSY_OK:-}" = 1 ] || {
    echo "bench/host-drift.sh: the machine is busy (above); wait, or BUSY_OK=1" >&2; exit 1; }

PROBE=$BUILD/bench/host_probe
mkdir -p "$BUILD/bench"
# The ping-pong is the collector's own probe (collect/wakeprobe.c).
PROBE_SRC="$ROOT/bench/host_probe.c $ROOT/collect/wakeprobe.c $ROOT/stats/median.c
           $ROOT/core/src/status.c $ROOT/core/src/utf8.c"
stale=
for f in $PROBE_SRC; do [ "$f" -nt "$PROBE" ] && stale=1; done
if [ ! -x "$PROBE" ] || [ -n "$stale" ]; then
    # shellcheck disable=SC2086 # the list of sources splits on purpose
    ${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -pthread -I"$ROOT/core/include" -I"$ROOT/collect" \
        -I"$ROOT/stats" -o "$PROBE" $PROBE_SRC -lgsl -lgslcblas -lm
fi

TMP=$(mktemp -d)
SERVER=
stop_server() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$TMP"
}
trap stop_server EXIT

cd "$W"
taskset -c 1 "$DENO" run -A --unstable-net hono-hello.mjs --port "$PORT" --host 127.0.0.1 \
    >"$TMP/server.log" 2>&1 &
SERVER=$!
URL=http://127.0.0.1:$PORT/
for _ in $(seq 1 100); do
    curl -fs -o /dev/null "$URL" 2>/dev/null && break
    sleep 0.2
done
curl -fs -o /dev/null "$URL" || { echo "bench/host-drift.sh: the server did not answer" >&2; cat "$TMP/server.log" >&2; exit 1; }
# Ten seconds of load first: the JIT's warm-up is not the host's drift.
taskset -c 0 wrk -t1 -c100 -d10s "$URL" >/dev/null

echo "time pingpong_us syscall_ns fault_us_per_mib alu_ns_per_1000 rps" | tee "$TMP/rows"
END=$((SECONDS + DURATION))
while [ $SECONDS -lt $END ]; do
    probes=$("$PROBE")
    rps=$(taskset -c 0 wrk -t1 -c100 -d3s "$URL" | awk '/^Requests\/sec:/ {print $2}')
    echo "$(date -u +%T) $probes $rps" | tee -a "$TMP/rows"
    sleep 1
done

"$PY" - "$TMP/rows" <<'EOF'
import sys
from scipy.stats import spearmanr
rows = [line.split() for line in open(sys.argv[1])]
head, rows = rows[0], [r for r in rows[1:] if len(r) == 6]
rps = [float(r[5]) for r in rows]
print(f"\n{len(rows)} rounds; req/s {min(rps):,.0f} to {max(rps):,.0f}")
print("probe              rho vs req/s   p        range (min to max)")
for i in range(1, 5):
    xs = [float(r[i]) for r in rows]
    rho, p = spearmanr(xs, rps) if len(rows) > 2 else (float("nan"), float("nan"))
    print(f"{head[i]:<18} {rho:+.2f}          {p:.2g}   {min(xs):g} to {max(xs):g}")
EOF
