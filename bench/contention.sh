#!/bin/bash
# contention.sh - does the guard keep the means right on a busy machine?
# A small suite (a CPU loop under node, deno and bun) is collected twice:
# on a quiet machine, and beside a CPU hog that comes and goes (5 s on,
# 5 s off). Prints both means per config and their ratio (target: within
# 3 %), and the guard's cost: the wall time per run of the quiet
# collection with --contention wait against --contention off (target: at
# most 2 % more). Figures go to docs/performance.md ("Contention guard").
#
#   bench/contention.sh [BUILD] [RUNS]     (default build, 8)
#
# Runs the runtimes `make deps` pinned (data/workloads/node_modules/.bin)
# ahead of any on PATH; run on a quiet machine.
set -eu
. "$(dirname "$0")/lib.sh"
PATH=$(cd "$(dirname "$0")/.." && pwd)/data/workloads/node_modules/.bin:$PATH
bench_start 8 "$@"
bench_quiet "the machine is not quiet"
loop='let s=0; for (let i=0;i<3e8;i++) s+=i; console.log(s)'
collect() { # MODE STORE
    local t0 t1
    t0=$(date +%s.%N)
    "$C" run --contention "$1" -q -r "$runs" -w 1 -o "$2" --names node,deno,bun \
        "node -e '$loop'" "deno eval '$loop'" "bun -e '$loop'"
    t1=$(date +%s.%N)
    echo "$t0 $t1" >"$2.time"
}
collect off "$tmp/off.jsonl"
collect wait "$tmp/quiet.jsonl"
# The hog comes and goes, bounded: at most 1 h, killed with its group.
setsid bash -c 'end=$((SECONDS+3600)); while [ $SECONDS -lt $end ]; do
    timeout 5 sh -c "while :; do :; done"; sleep 5; done' &
hog=$!
collect wait "$tmp/busy.jsonl"
bench_stop_hog
python3 - "$tmp" <<'PY'
import json, sys, statistics as st
d = sys.argv[1]
def means(name):
    by = {}
    for line in open(f"{d}/{name}.jsonl"):
        r = json.loads(line)
        if r["phase"] != "measure" or r["status"] != "ok" or r.get("contended"):
            continue
        by.setdefault(r["config"].get("command", "?"), []).append(r["metrics"]["wall_ms"])
    return {k: st.mean(v) for k, v in by.items()}
def secs(name):
    a, b = map(float, open(f"{d}/{name}.jsonl.time").read().split())
    return b - a
q, b = means("quiet"), means("busy")
for k in sorted(q):
    print(f"{k:6} quiet {q[k]:9.1f} ms  beside the hog {b.get(k, float('nan')):9.1f} ms  "
          f"ratio {b.get(k, float('nan')) / q[k]:.3f}")
print(f"guard cost on a quiet machine: {secs('quiet') / secs('off') * 100 - 100:+.1f} % wall time")
PY
