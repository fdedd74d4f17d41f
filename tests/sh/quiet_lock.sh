#!/usr/bin/env bash
# quiet_lock.sh BUILD ROOT - a collection waiting for a quiet machine holds
# no lock on its store (issue 25, item 3): `suite` before a command's run,
# and `http` before each load run of a server session, let the store go for
# the wait, so a second writer of the same store is not blocked for it.
# The busy machine is a fake /proc (RUNDOWN_PROC_ROOT) whose stat a loop
# of this script advances by one busy CPU, so no CPU hog is needed; the
# loop is bounded by timeout(1) and stopped by its pid. Label timing.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
ROOT=$2
unset RUNDOWN_CONTENTION

# A fake /proc/stat of 4 CPUs, all busy all the time: 5 ticks of user time
# each every 0.05 s (USER_HZ 100: 400 % of one CPU, far above the default
# threshold of 25 %, and more than rundown's own processes on this machine
# can use, which the guard takes off), written whole by rename.
mkdir -p busy
timeout 150 bash -c '
    t=0
    while :; do
        t=$((t + 5))
        { echo "cpu  $((4 * t)) 0 0 0 0 0 0 0 0 0"
          for c in 0 1 2 3; do echo "cpu$c $t 0 0 0 0 0 0 0 0 0"; done; } >busy/stat.tmp
        mv busy/stat.tmp busy/stat
        sleep 0.05
    done' &
feeder=$!
cleanup_hooks="kill $feeder 2>/dev/null; wait $feeder 2>/dev/null;"
sleep 0.3

# await FILE TEXT: waits up to 30 s for TEXT in FILE (a waiting writer's note).
await() {
    for _ in $(seq 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    fail "no '$2' in $1 after 30 s: $(cat "$1")"
}

# second STORE: a writer with the guard off storing 2 runs of `true` into
# STORE; prints how long it took, in tenths of a second.
second() {
    local t0=$(date +%s%N)
    "$RC" run --contention off -q -r 2 -o "$1" true >/dev/null 2>second.err ||
        fail "the second writer failed: $(cat second.err)"
    echo $((($(date +%s%N) - t0) / 100000000))
}

# 1. suite: a command workload waits up to 3 s before its run (and before
#    its redo: the run comes out contended). A second writer started during
#    the first wait is through at once and its runs come first.
cat >s.json <<'EOF'
{"schema": "rundown.suite/1", "name": "q", "contention": {"wait": 3},
 "workloads": [{"name": "w", "class": "cpu", "runs": 1, "warmups": 0,
                "command": ["sleep", "0.05"]}]}
EOF
RUNDOWN_PROC_ROOT=$TMP/busy "$RC" suite -o out s.json >/dev/null 2>suite.err &
waiter=$!
await suite.err 'measure 1: waiting for a quiet machine'
took=$(second out/q.jsonl)
wait $waiter || fail "the suite failed: $(cat suite.err)"
[ "$took" -lt 20 ] || fail "suite: the second writer took $took/10 s (blocked by the wait)"
check out/q.jsonl "suite: the second writer's runs come first" \
    "recs[0]['info']['command'] == 'true' and recs[1]['info']['command'] == 'true'"
check out/q.jsonl "suite: the suite's run waited and is marked" \
    "any(r.get('suite') == 'q' and r.get('contended') for r in recs)"

# 2. http, one server session: the wait before the session comes before
#    the lock (3 s); the wait before its load run (3 s more) is inside the
#    session. A second writer started in that second wait is through at once.
port=$(free_port)
sample=$ROOT/data/samples/wrk-local-default.txt
RUNDOWN_PROC_ROOT=$TMP/busy "$RC" http --contention-wait 3 -n 1 -o h.jsonl \
    --url "http://127.0.0.1:$port/" \
    --server "python3 -m http.server --bind 127.0.0.1 $port" -- cat "$sample" >/dev/null 2>http.err &
waiter=$!
await http.err 'measure 1: waiting for a quiet machine'
took=$(second h.jsonl)
wait $waiter || fail "http failed: $(cat http.err)"
[ "$took" -lt 20 ] || fail "http: the second writer took $took/10 s (blocked by the wait)"
check h.jsonl "http: the second writer's runs come first" \
    "[r['info'].get('command') for r in recs[:2]] == ['true', 'true'] and recs[2]['phase'] == 'measure'"

finish quiet_lock
