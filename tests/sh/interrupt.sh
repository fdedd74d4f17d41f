#!/usr/bin/env bash
# interrupt.sh BUILD ROOT - a suite of short commands and of a real server
# under load is stopped with SIGINT, SIGTERM and SIGKILL at random moments,
# round after round, and resumed with --resume each time; then it runs to the
# end. Checks: every run of the plan is in the store exactly once, each line
# is a whole record, rundown-analyze reads the store, the exit code is 128 +
# the signal, and no benchmarked process, server or listening port is left
# behind - also after SIGKILL, which the server survives only if rundown
# failed to arm its parent-death signal.
#
# ROUNDS (default 15) and SEED (default: the time) can be set from outside;
# the seed is printed so a failing sequence can be replayed. STRICT_KILL=0
# only counts servers that outlive a SIGKILL instead of failing. About 30 s.
. "$(dirname "$0")/require.bash" python3 hey
set -u
build=$(cd "$1" && pwd) || exit 2
RC=$build/collect/rundown-collect
RA=$build/analyze/rundown-analyze
ROUNDS=${ROUNDS:-15}
SEED=${SEED:-$(date +%s)}
RANDOM=$SEED
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-interrupt.XXXXXX") || exit 2
T=$(cd "$T" && pwd -P)
cleanup() {
    # Whatever a failed check left running is stopped here (only pids this
    # test's own workloads recorded).
    for p in $(cat "$T"/pids "$T"/spids 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 2
echo "interrupt: seed $SEED, $ROUNDS rounds"


# 3 configs x 3 runs of a command sleeping 0.05-0.2 s, and 2 sessions of a
# python3 http.server on a free loopback port under 40 requests of hey.
# Every benchmarked process records its pid (and the server its port) first.
cat >s.json <<JSON
{"schema": "rundown.suite/1", "name": "intr", "root": ".", "order": "random", "seed": 5,
 "workloads": [
  {"name": "cmd", "class": "cpu", "runs": 3, "timeout": 10,
   "matrix": {"d": ["0.05", "0.1", "0.2"]},
   "command": ["sh", "-c", "echo \$\$ >>{root}/pids; sleep {d}; echo rundown:metric x_ms={d}"]},
  {"name": "srv", "class": "io", "runs": 2, "port": 0, "timeout": 10,
   "ready_timeout": 10, "stop_timeout": 2, "load_tool": "hey",
   "server": ["sh", "-c", "echo \$\$ >>{root}/spids; echo {port} >>{root}/ports; exec python3 -m http.server --bind {host} {port}"],
   "load": ["hey", "-n", "40", "-c", "2", "{url}"]}
 ]}
JSON
STORE=out/intr.jsonl
PLAN=11

alive() { # pids from the files given that still run
    # a killed process may stay a zombie until init reaps it: not running;
    # every process of this test runs in $T (the suite's root), so a pid
    # reused by a stranger is not taken for one of ours
    local p st
    for p in $(cat "$@" 2>/dev/null); do
        st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
        case ${st##*) } in Z* | X*) continue ;; esac
        [ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$T" ] && echo "$p"
    done
}
listening() { # recorded ports that still have a listener
    for port in $(sort -u ports 2>/dev/null); do
        if command -v ss >/dev/null; then
            [ -n "$(ss -Hltn "sport = :$port" 2>/dev/null)" ] && echo "$port"
        else
            hex=$(printf '%04X' "$port")
            grep -q ":$hex 00000000:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null && echo "$port"
        fi
    done
}

signals=(INT TERM KILL HUP)
start=$(date +%s)
killed=0 finished_early=0 orphaned=0 sigkills=0 servers_at_kill=0 slowest_kill_ms=0
touch pids spids ports
for round in $(seq 1 "$ROUNDS"); do
    sig=${signals[$(( (round - 1) % ${#signals[@]} ))]}
    # a moment between 0.05 s and 1.25 s into the run
    delay=$(printf '0.%02d' $((5 + RANDOM % 95)))
    [ $((RANDOM % 4)) -eq 0 ] && delay=1.$((RANDOM % 25))
    np=$(wc -l <pids) ns=$(wc -l <spids)
    # env: a background job starts with SIGINT ignored, an ignore rundown
    # keeps (nohup); the default is restored so SIGINT rounds test SIGINT.
    env --default-signal=INT "$RC" suite --resume -o out s.json >/dev/null 2>"err.$round" &
    pid=$!
    sleep "$delay"
    # servers of this round running just before a SIGKILL: the ones the
    # parent-death signal must stop
    [ "$sig" = KILL ] && up=$(tail -n +$((ns + 1)) spids >round.spids; alive round.spids | wc -l)
    exec 3>&2 2>/dev/null # bash reports a killed job on the shell's stderr
    if kill -"$sig" "$pid" 2>/dev/null; then
        killed=$((killed + 1))
        [ "$sig" = KILL ] && sigkills=$((sigkills + 1)) servers_at_kill=$((servers_at_kill + up))
    else
        finished_early=$((finished_early + 1))
    fi
    wait "$pid"
    rc=$?
    exec 2>&3 3>&-
    # 128 + the signal, as a shell reports it (0: the suite ended first)
    case $sig:$rc in
        INT:130 | TERM:143 | HUP:129 | KILL:137 | *:0) ;;
        *) fail "round $round: SIG$sig after ${delay}s: exit $rc"; sed 's/^/    /' "err.$round" | head -5 ;;
    esac
    tail -n +$((np + 1)) pids >round.pids
    tail -n +$((ns + 1)) spids >round.spids
    if [ "$sig" != KILL ]; then
        # SIGINT, SIGTERM, SIGHUP: rundown stops what it started, then exits.
        left=$(alive round.pids round.spids)
        [ -z "$left" ] || fail "round $round: after SIG$sig, still running: $(ps -o pid=,args= -p "$(echo $left | tr ' ' ,)")"
    else
        # SIGKILL cannot be caught: the command in flight ends by itself
        # (0.2 s at most); the server gets SIGKILL from the kernel as its
        # parent dies (PR_SET_PDEATHSIG).
        # The kernel sends the signal as rundown exits, but on a loaded machine
        # the processes may take a while to be scheduled and torn down: poll
        # up to 3 s. A server without the death signal runs on for good, and
        # a command ends by itself well before (it sleeps at most 0.2 s).
        t0=$(date +%s%N)
        for try in $(seq 30); do
            left=$(alive round.pids round.spids)
            [ -z "$left" ] && break
            sleep 0.1
        done
        ms=$(( ($(date +%s%N) - t0) / 1000000 ))
        [ "$ms" -gt "$slowest_kill_ms" ] && slowest_kill_ms=$ms
        left=$(alive round.pids)
        [ -z "$left" ] || fail "round $round: commands still running 3 s after SIGKILL: $left"
        left=$(alive round.spids)
        if [ -n "$left" ]; then
            ps -o pid=,ppid=,stat=,etime=,args= -p "$(echo $left | tr ' ' ,)" | sed 's/^/    /'
            orphaned=$((orphaned + $(echo $left | wc -w)))
            if [ "${STRICT_KILL:-1}" = 1 ]; then
                fail "round $round: server left running after SIGKILL of rundown-collect: $left"
            fi
            kill -KILL $left 2>/dev/null # our own test's servers
        fi
    fi
    [ $(( $(date +%s) - start )) -lt 40 ] || { echo "interrupt: time budget used after $round rounds"; break; }
done
echo "interrupt: $killed runs interrupted ($sigkills by SIGKILL, with $servers_at_kill server(s) running), $finished_early ended before the signal, $orphaned server(s) orphaned; after SIGKILL everything was gone within $slowest_kill_ms ms"

"$RC" suite --resume -o out s.json >/dev/null 2>err.final
rc=$?
[ $rc -eq 0 ] || { fail "final resume: exit $rc"; head -5 err.final; }

python3 - "$STORE" "$PLAN" <<'PY' || fails=$((fails + 1))
import collections, json, sys
path, plan = sys.argv[1], int(sys.argv[2])
recs = []
for n, line in enumerate(open(path, "rb"), 1):
    try:
        recs.append(json.loads(line))
    except ValueError as e:
        sys.exit("FAIL: %s:%d is not a whole record: %s" % (path, n, e))
key = lambda r: (r["workload"], json.dumps(r["config"], sort_keys=True), r["phase"], r["run"])
counts = collections.Counter(key(r) for r in recs)
want = {("cmd", json.dumps({"d": d}), "measure", i) for d in ("0.05", "0.1", "0.2") for i in (1, 2, 3)}
want |= {("srv", "{}", "measure", i) for i in (1, 2)}
dups = [k for k, c in counts.items() if c > 1]
missing, extra = want - set(counts), set(counts) - want
bad = [key(r) for r in recs if r["status"] != "ok"]
if dups or missing or extra or len(want) != plan:
    sys.exit("FAIL: store: duplicates %s, missing %s, extra %s" % (dups, missing, extra))
if bad:
    print("note: runs stored as failed (a signal hit them): %s" % bad)
print("interrupt: store holds %d runs, each once" % len(recs))
PY

"$RA" -o analysis.json "$STORE" 2>err.analyze || { fail "rundown-analyze rejects the store"; head -3 err.analyze; }

sleep 0.3
left=$(alive pids spids)
[ -z "$left" ] || fail "benchmarked processes still running at the end: $left"
ports=$(listening)
[ -z "$ports" ] || fail "ports still listening at the end: $ports"
echo "interrupt: $(sort -u ports | wc -l) server ports used, none left listening; $(wc -l <pids) command processes, none left"
[ $fails -eq 0 ] && echo "interrupt: ok"
[ $fails -eq 0 ]
