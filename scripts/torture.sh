#!/usr/bin/env bash
# torture.sh [--minutes M] [--build DIR] [--seed S] - the long form of
# tests/sh/collect_durability.sh: trials of rundown-collect writers under
# concurrency, SIGKILL, file-size limits, a full disk and cut stores, until
# M minutes (default 5) have passed. Prints each kind's trials and failures
# and exits 1 when any trial failed; the store of each failed trial is kept
# in ${TMPDIR:-/tmp}/rundown-torture-failed.SEED/. Figures: docs/reliability.md.
#
# Each trial draws one kind (bash RANDOM, seeded with S, printed first):
#   kill   2-5 concurrent `run` writers x 3-6 runs of `sleep 0.0x` of one
#          config (told apart by their command text, which is not a label);
#          0-2 of them SIGKILLed at a random moment.
#          Checks: the store reads with rundown-analyze, no (config, run)
#          twice, numbers 1..n per config, a writer not killed stored all
#          its runs, a killed one at most all.
#   limit  4 concurrent imports of 8 runs each under `ulimit -f` of 2-9 KiB.
#          Checks: the store reads and holds exactly the runs of the imports
#          that exited 0, each once; the others exited 3.
#   cut    a store of 10 runs cut at a random byte, then one `run` appends.
#          Checks: a cut at a line end or after a whole record: the append
#          succeeds, the store reads with 1 more run; any other cut: exit 1,
#          a message naming the store's last line, the file unchanged.
#   full   (root only, else skipped) 3 concurrent `run` writers x 40 runs
#          of one config into a 16 KiB tmpfs that fills up. Checks: the store reads, no
#          run twice, a writer that exited 0 stored all 40, the others 3.
#   daemon `http` with a server that escapes its process group (a setsid
#          grandchild or a double-forked daemon: tests/sh/daemon_server.py).
#          Checks: no process of it and nothing on its port afterwards, and a
#          warning names what was killed.
#   turns  two `run` writers (8 and 4 runs of `sleep 0.05`) on one store,
#          the second started once the first stored a run. Checks: from the
#          second's first run until either is done they alternate strictly.
#   percent a store whose two config names hold '%' (random text around it)
#          through analyze and render (md, charts). Checks: exit 0, every
#          chart written.
#   trunc  a random prefix of a random text sample (data/samples) imported.
#          Checks: refused with "the output ends early" or another message,
#          or stored the same records as the whole file (failed runs of ab's
#          banner and a complete report before a JSON trailer excepted, as in
#          tests/unit/test_truncation.c).
# Only this script's own processes are killed, by the pids it started.
set -u
MINUTES=5 BUILD=build SEED=$(date +%s)
while [ $# -gt 0 ]; do
    case $1 in
        --minutes) MINUTES=$2; shift 2 ;;
        --build) BUILD=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--minutes M] [--build DIR] [--seed S]" >&2; exit 2 ;;
    esac
done
BUILD=$(cd "$BUILD" && pwd) || exit 2
# The trials are about stores, not the machine: the contention guard would
# make each run wait up to a minute for quiet on a busy machine (as in the
# tests: tests/CMakeLists.txt sets the same).
export RUNDOWN_CONTENTION=${RUNDOWN_CONTENTION:-off}
RC=$BUILD/collect/rundown-collect
RA=$BUILD/analyze/rundown-analyze
RR=$BUILD/render/rundown-render
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RANDOM=$SEED
T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-torture.XXXXXX") || exit 2
MNT=""
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T" || exit 2
echo "torture: seed $SEED, $MINUTES minutes, build $BUILD"

declare -A trials fails
kinds=(kill limit cut full daemon turns percent trunc)
for k in "${kinds[@]}"; do trials[$k]=0 fails[$k]=0; done
why=""
bad() { why="$why; $*"; }

python3 -c '
import json
for i in range(4):
    json.dump({"results": [{"command": "c%d" % i, "times": [0.1 + k / 100 for k in range(8)]}]},
              open("hf%d.json" % i, "w"))'

# check STORE: reads, no (workload, config, phase, run) twice, runs 1..n per config.
check_store() {
    [ -s "$1" ] || return 0
    "$RA" "$1" >/dev/null 2>analyze.err || { bad "analyze: $(head -c 200 analyze.err)"; return; }
    python3 - "$1" <<'PY' || bad "$(cat check.err)"
import json, sys, collections
per = collections.defaultdict(list)
for l in open(sys.argv[1]):
    r = json.loads(l)
    per[(r["workload"], json.dumps(r["config"], sort_keys=True), r["phase"])].append(r["run"])
for k, runs in per.items():
    if len(runs) != len(set(runs)) or sorted(runs) != list(range(1, len(runs) + 1)):
        open("check.err", "w").write("runs of %s: %s" % (k, sorted(runs)))
        sys.exit(1)
PY
}
# A store no writer created holds 0 runs (grep -c prints nothing for it).
count_label() { [ -e "$1" ] || { echo 0; return; }; grep -c "\"$2\":\"$3\"" "$1" || true; }
count_writer() { [ -e "$1" ] || { echo 0; return; }; grep -c ": w$2\"" "$1" || true; }  # STORE I

trial_kill() {
    local n=$((2 + RANDOM % 4)) m=$((3 + RANDOM % 4)) i pids=() killed=()
    for ((i = 0; i < n; i++)); do
        "$RC" run -r $m --workload w --env e -o s.jsonl --shell=sh -- "sleep 0.0$((1 + RANDOM % 9)); : w$i" 2>/dev/null &
        pids+=($!)
    done
    local nk=$((RANDOM % 3))
    for ((i = 0; i < nk && i < n; i++)); do
        sleep 0.$((RANDOM % 4))$((RANDOM % 10))
        kill -KILL "${pids[$i]}" 2>/dev/null && killed+=($i)
    done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    check_store s.jsonl
    for ((i = 0; i < n; i++)); do
        local got=$(count_writer s.jsonl $i) was_killed=0
        for k in "${killed[@]}"; do [ "$k" = $i ] && was_killed=1; done
        if [ $was_killed = 0 ]; then [ "$got" -eq $m ] || bad "writer $i: $got of $m runs"
        else [ "$got" -le $m ] || bad "killed writer $i: $got runs"; fi
    done
}

trial_limit() {
    local lim=$((2 + RANDOM % 8)) i
    rm -f ok.* rc.*
    (
        ulimit -f $lim
        for i in 0 1 2 3; do
            ( "$RC" import -t hyperfine -w w -l i=$i -o s.jsonl hf$i.json 2>/dev/null; echo $? >rc.$i ) &
        done
        wait
    )
    check_store s.jsonl
    for i in 0 1 2 3; do
        local rc=$(cat rc.$i) got=$(count_label s.jsonl i $i)
        case $rc in
            0) [ "$got" -eq 8 ] || bad "import $i exited 0, $got runs stored" ;;
            3) [ "$got" -eq 0 ] || bad "import $i exited 3, $got runs stored" ;;
            *) bad "import $i: exit $rc" ;;
        esac
    done
}

trial_cut() {
    "$RC" run -r 10 --workload w --env e -o full.jsonl -- true 2>/dev/null || { bad "setup run"; return; }
    local size=$(wc -c <full.jsonl) at
    at=$((1 + RANDOM * 32768 % size))
    [ $at -ge $size ] && at=$((size - 1))
    head -c $at full.jsonl >s.jsonl
    cp s.jsonl before.jsonl
    local whole
    whole=$(python3 -c '
import json, sys
d = open("s.jsonl").read()
last = d.rsplit("\n", 1)[-1]
try:
    json.loads(last) if last.strip() else None
    print(1)
except ValueError:
    print(0)')
    local lines=$(python3 -c 'print(sum(1 for l in open("s.jsonl") if l.strip()))')
    "$RC" run -r 1 --workload w --env e -o s.jsonl -- true 2>cut.err
    local rc=$?
    if [ "$whole" = 1 ]; then
        [ $rc -eq 0 ] || bad "cut at $at of $size (a whole record): exit $rc: $(cat cut.err)"
        check_store s.jsonl
        local now=$(wc -l <s.jsonl)
        [ "$now" -eq $((lines + 1)) ] || bad "cut at $at: $now lines, expected $((lines + 1))"
    else
        [ $rc -eq 1 ] || bad "cut at $at of $size: exit $rc, expected 1"
        grep -q "s.jsonl:$lines:" cut.err || bad "cut at $at: message: $(cat cut.err)"
        cmp -s s.jsonl before.jsonl || bad "cut at $at: the store changed"
    fi
}

trial_full() {
    if [ "$(id -u)" != 0 ]; then
        return 77
    fi
    if [ -z "$MNT" ]; then
        MNT=$T/mnt
        mkdir -p "$MNT"
        mount -t tmpfs -o size=16k tmpfs "$MNT" 2>/dev/null || { MNT=""; return 77; }
    fi
    rm -rf "$MNT"/*
    local i pids=()
    for i in 0 1 2; do
        ( "$RC" run -r 40 --workload w --env e -o "$MNT/s.jsonl" --shell=sh -- ": w$i" 2>/dev/null; echo $? >rc.$i ) &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    cp "$MNT/s.jsonl" s.jsonl 2>/dev/null || : >s.jsonl
    check_store s.jsonl
    for i in 0 1 2; do
        local rc=$(cat rc.$i) got=$(count_writer s.jsonl $i)
        case $rc in
            0) [ "$got" -eq 40 ] || bad "writer $i exited 0, $got of 40 runs stored" ;;
            3) [ "$got" -le 40 ] || bad "writer $i: $got runs" ;;
            *) bad "writer $i: exit $rc" ;;
        esac
    done
}

free_port() {
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

trial_daemon() {
    local port mode
    port=$(free_port)
    mode=$([ $((RANDOM % 2)) = 0 ] && echo setsid || echo double)
    "$RC" http -n 1 -w d -o s.jsonl --stop-timeout 1 --ready-timeout 10 \
        --url "http://127.0.0.1:$port/" \
        --server "python3 $ROOT/tests/sh/daemon_server.py $port $mode" -- true >/dev/null 2>d.err
    grep -Eq 'the server left [0-9]+ process' d.err || bad "daemon $mode: no warning: $(head -c 300 d.err)"
    sleep 0.1
    if ps -eo args | grep -v grep | grep -q "daemon_server.py $port"; then
        bad "daemon $mode: left running"
        pkill -KILL -f "daemon_server.py $port"  # only the one this trial started
    fi
    python3 -c "import socket,sys;s=socket.socket();s.settimeout(0.5);sys.exit(0 if s.connect_ex(('127.0.0.1',$port))==0 else 1)" &&
        bad "daemon $mode: port $port still accepts connections"
}

trial_turns() {
    "$RC" run -q -r 8 --workload a -o s.jsonl -- sleep 0.05 >/dev/null &
    local p1=$!
    # b starts once a's first run is stored: its start-up (version probe,
    # environment, store read) may take a's next runs under load, but once
    # it asks for the store they must alternate.
    for _ in $(seq 100); do [ -s s.jsonl ] && break; sleep 0.02; done
    "$RC" run -q -r 4 --workload b -o s.jsonl -- sleep 0.05 >/dev/null &
    wait $p1 $!
    local verdict
    verdict=$(python3 -c "$TURNS_CHECK" s.jsonl)
    [ "$verdict" = ok ] || bad "turns: $verdict"
}

trial_percent() {
    local a="$((RANDOM % 100))% ${RANDOM}" b="%${RANDOM}%s %d"
    "$RC" run -q -r 3 --workload w --env e -o s.jsonl --names "$a,$b" -- true -- true 2>/dev/null ||
        { bad "percent: run"; return; }
    rm -rf out
    "$RA" -o a.json s.jsonl 2>/dev/null || { bad "percent: analyze"; return; }
    "$RR" --formats md,charts -o out a.json 2>p.err || { bad "percent: render: $(head -c 200 p.err)"; return; }
    [ -s out/report.md ] && [ "$(ls out/charts/*.svg 2>/dev/null | wc -l)" -ge 2 ] ||
        bad "percent: outputs missing"
}

trial_trunc() {
    local files=("$ROOT"/data/samples/{wrk,wrk2,hey,ab,bombardier}-*.txt "$ROOT"/data/samples/autocannon-*.stderr.txt)
    local f=${files[$((RANDOM % ${#files[@]}))]}
    local size=$(wc -c <"$f") at
    at=$((1 + RANDOM * 32768 % size))
    head -c $at "$f" >cut.txt
    "$RC" import -w w -o whole.jsonl "$f" >/dev/null 2>&1 || return 0  # a sample of a bad run
    "$RC" import -w w -o s.jsonl cut.txt >/dev/null 2>cut.err || { rm -f whole.jsonl; return 0; }
    python3 - whole.jsonl s.jsonl "$f" <<'PY' || bad "trunc: $(basename "$f") cut at $at: $(cat t.err)"
import json, sys
strip = lambda r: {k: v for k, v in r.items() if k not in ("source", "started_at", "imported_at")}
whole = [strip(json.loads(l)) for l in open(sys.argv[1])]
cut = [strip(json.loads(l)) for l in open(sys.argv[2])]
cutb = open("cut.txt", "rb").read()
rest = open(sys.argv[3], "rb").read()[len(cutb):].lstrip(b"\n ")
if cut == whole[:len(cut)] or all(r["status"] == "failed" for r in cut) or \
   (cutb.endswith(b"\n") and rest.startswith(b"{")):
    sys.exit(0)
open("t.err", "w").write("accepted with other records")
sys.exit(1)
PY
    rm -f whole.jsonl
}

# From the later writer's first run until either stored its last, no writer
# stores two runs in a row (and the later one got in before the end).
TURNS_CHECK='
import json, sys
ws = [json.loads(l)["workload"] for l in open(sys.argv[1])]
a = ws[0]
j = next((i for i, x in enumerate(ws) if x != a), len(ws))
k = min(max(i for i, x in enumerate(ws) if x == w) for w in set(ws))
bad = [i for i in range(j, k) if ws[i] == ws[i + 1]]
print("ok" if j < k and not bad else "order " + "".join(ws))'

end=$(( $(date +%s) + MINUTES * 60 ))
n=0
while [ "$(date +%s)" -lt $end ]; do
    k=${kinds[$((RANDOM % ${#kinds[@]}))]}
    rm -f s.jsonl full.jsonl
    why=""
    exec 3>&2 2>/dev/null  # bash reports killed jobs on the shell's stderr
    trial_$k
    rc=$?
    exec 2>&3 3>&-
    n=$((n + 1))
    [ $rc -eq 77 ] && continue
    trials[$k]=$((trials[$k] + 1))
    if [ -n "$why" ]; then
        fails[$k]=$((fails[$k] + 1))
        echo "trial $n ($k): FAIL${why}"
        mkdir -p "$T/../rundown-torture-failed.$SEED" 2>/dev/null && cp s.jsonl "$T/../rundown-torture-failed.$SEED/trial$n.jsonl" 2>/dev/null
    fi
done
total=0 failed=0
for k in "${kinds[@]}"; do
    printf '%-6s %5d trials %3d failures\n' "$k" "${trials[$k]}" "${fails[$k]}"
    total=$((total + trials[$k])) failed=$((failed + fails[$k]))
done
[ "$(id -u)" = 0 ] || echo "full: skipped (needs root for a tmpfs)"
echo "torture: $total trials, $failed failures (seed $SEED)"
[ $failed -eq 0 ]
