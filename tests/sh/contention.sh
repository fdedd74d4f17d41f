#!/bin/bash
# contention.sh - the guard against a busy machine (collect/contention.h):
# runs beside a CPU hog are flagged and redone up to the cap, analyze
# leaves them out, `check` says busy; on a quiet /proc (a fixed copy given
# by RUNDOWN_PROC_ROOT) nothing is flagged; CPUs that slow down (fixed
# speed readings, RUNDOWN_SPEED_PROBE) are, and so are slow cross-CPU
# wake-ups read with them. When the real machine is quiet
# too, a hog that stops after 2 s is waited out. Every hog is bounded by
# timeout(1) and killed by its pid. Label timing (tests/CMakeLists.txt).
set -u
build=$1
C=$build/collect/rundown-collect
A=$build/analyze/rundown-analyze
unset RUNDOWN_CONTENTION
tmp=$(mktemp -d)
hogs=()
cleanup() {
    for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# A CPU hog for at most $1 seconds: one CPU busy.
hog() { timeout "$1" sh -c 'while :; do :; done' & hogs+=($!); }
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; hogs=(); }

# 1. Beside a hog: every measured run is contended; each is redone once,
#    the redos too, until the cap (as many redos as runs).
hog 60
sleep 0.5
"$C" run --contention warn -r 3 -o "$tmp/busy.jsonl" 'sleep 0.3' 2>"$tmp/busy.err" ||
    fail "run beside the hog failed: $(cat "$tmp/busy.err")"
n=$(grep -c '"phase":"measure"' "$tmp/busy.jsonl")
nc=$(grep '"phase":"measure"' "$tmp/busy.jsonl" | grep -c '"contended":true')
[ "$n" = 6 ] || fail "beside the hog: expected 3 runs and 3 redos, got $n measured runs"
[ "$nc" = 6 ] || fail "beside the hog: expected 6 contended runs, got $nc"
grep -q 'machine_others_cpu_pct' "$tmp/busy.jsonl" || fail "no machine_others_cpu_pct"
grep -q 'stopped at the cap' "$tmp/busy.err" || fail "the cap is not reported: $(cat "$tmp/busy.err")"

# 2. `check` beside the hog: busy, exit 1.
"$C" check --window 0.5 >"$tmp/check.out"
rc=$?
[ "$rc" = 1 ] || fail "check beside the hog exited $rc: $(cat "$tmp/check.out")"
grep -q 'BUSY' "$tmp/check.out" || fail "check names nothing busy"

# 3. wait mode with a short wait: the run is taken anyway, still flagged,
#    and the wait is recorded.
"$C" run --contention-wait 1 -r 1 -o "$tmp/gaveup.jsonl" 'sleep 0.1' 2>"$tmp/gaveup.err" ||
    fail "run with --contention-wait 1 failed"
grep -q '"contended":true' "$tmp/gaveup.jsonl" || fail "a run after a vain wait is not flagged"
grep -q 'contention_wait_s' "$tmp/gaveup.jsonl" || fail "the wait is not recorded"
grep -q 'waiting for a quiet machine' "$tmp/gaveup.err" || fail "no note names the busy processes"

# 3b. A writer waiting for quiet holds no lock on the store: another
#     writer (guard off) stores its runs meanwhile, so they come first.
"$C" run --contention-wait 4 -r 1 -o "$tmp/shared.jsonl" 'sleep 0.1' 2>/dev/null &
waiter=$!
sleep 1
"$C" run --contention off -r 2 -o "$tmp/shared.jsonl" 'true' 2>/dev/null ||
    fail "the second writer failed"
wait $waiter || fail "the waiting writer failed"
first=$(grep -m1 '"phase":"measure"' "$tmp/shared.jsonl")
case $first in
*'"command":"true"'*) ;;
*) fail "the writer waiting for quiet held the store: its run came first: $first" ;;
esac

# 3c. http redoes contended runs as run does, up to the cap (the load
#     prints a stored wrk report: the runs themselves are fine).
sample=$(cd "$(dirname "$0")/../.." && pwd)/data/samples/wrk-local-default.txt
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$C" http --contention warn -n 2 -o "$tmp/http.jsonl" --url "http://127.0.0.1:$port/" \
    --server "python3 -m http.server --bind 127.0.0.1 $port" -- cat "$sample" >/dev/null 2>"$tmp/http.err" ||
    fail "http beside the hog failed: $(cat "$tmp/http.err")"
n=$(grep -c '"phase":"measure"' "$tmp/http.jsonl")
[ "$n" = 4 ] || fail "http beside the hog: expected 2 runs and 2 redos, got $n: $(cat "$tmp/http.err")"
grep -q 'stopped at the cap' "$tmp/http.err" || fail "http: the cap is not reported: $(cat "$tmp/http.err")"
stop_hogs

# 4. analyze leaves contended runs out by default and says so.
"$A" -o "$tmp/a.json" "$tmp/busy.jsonl" 2>/dev/null
python3 - "$tmp/a.json" <<'PY' || fail "analysis of contended runs"
import json, sys
a = json.load(open(sys.argv[1]))
w = a["workloads"][0]
c = w["configs"][0]
assert c["contended_runs"] == 6, c["contended_runs"]
assert w["contention"]["contended_runs"] == 6
assert any(x["code"] == "contended" for x in a.get("warnings", []) + w.get("warnings", [])), "no contended warning"
PY

# 5. A quiet /proc: nothing is flagged, nothing waits.
mkdir -p "$tmp/proc" "$tmp/q"
printf 'cpu  100 0 100 10000 0 0 0 0 0 0\ncpu0 50 0 50 5000 0 0 0 0 0 0\ncpu1 50 0 50 5000 0 0 0 0 0 0\n' >"$tmp/proc/stat"
RUNDOWN_PROC_ROOT=$tmp/proc "$C" run -r 3 -o "$tmp/q/quiet.jsonl" 'sleep 0.05' 2>"$tmp/quiet.err" ||
    fail "quiet run failed"
[ "$(grep -c '"phase":"measure"' "$tmp/q/quiet.jsonl")" = 3 ] || fail "quiet: expected 3 runs"
! grep -q '"contended"' "$tmp/q/quiet.jsonl" || fail "a quiet run is flagged"
grep -q '"machine_others_cpu_pct":0' "$tmp/q/quiet.jsonl" || fail "quiet: others not 0"
# Each collection's check goes into the environment file: "check" is the
# latest, "checks" lists them all (here the two quiet runs into one store).
RUNDOWN_PROC_ROOT=$tmp/proc "$C" run -r 1 -o "$tmp/q/quiet.jsonl" 'sleep 0.05' 2>/dev/null ||
    fail "second quiet run failed"
python3 - "$tmp" <<'PY' || fail "the environment does not keep each collection's check"
import glob, json, sys
envs = glob.glob(sys.argv[1] + "/q/env-*.json")
assert len(envs) == 1, envs
e = json.load(open(envs[0]))
cs = e["checks"]
assert len(cs) == 2, cs
assert cs[0]["captured_at"] < cs[1]["captured_at"], cs
assert e["check"]["quiet"] == cs[1]["quiet"] and "captured_at" not in e["check"]
PY
"$C" check --proc-root "$tmp/proc" --window 0.1 >"$tmp/qcheck.out" ||
    fail "check on a quiet /proc exited $?: $(cat "$tmp/qcheck.out")"

# 7. A host that slows the CPUs shows no steal and no foreign process: the
#    speed probe sees it (fixed readings in RUNDOWN_SPEED_PROBE, one line
#    per probe, the last repeating; CPU 1 at half its best from the second).
printf '1 1\n1 2\n' >"$tmp/slow.speed"
RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/slow.speed \
    "$C" run --contention warn -r 2 -o "$tmp/slow.jsonl" 'sleep 0.6' 2>"$tmp/slow.err" ||
    fail "run on slow CPUs failed: $(cat "$tmp/slow.err")"
n=$(grep '"phase":"measure"' "$tmp/slow.jsonl" | grep -c '"contended":true')
[ "$n" = 4 ] || fail "slow CPUs: expected 2 runs and 2 redos contended, got $n: $(cat "$tmp/slow.err")"
grep -q '"machine_speed_pct":50' "$tmp/slow.jsonl" || fail "slow CPUs: no machine_speed_pct 50"
grep -q 'below 85 % of their best speed, the slowest at 50 %' "$tmp/slow.err" ||
    fail "slow CPUs: the summary does not say why: $(cat "$tmp/slow.err")"
[ "$(grep -c '"contended_by":"speed"' "$tmp/slow.jsonl")" = 4 ] ||
    fail "slow CPUs: the runs do not say the speed set them aside"
"$A" -o "$tmp/slow.json" "$tmp/slow.jsonl" 2>/dev/null
python3 - "$tmp/slow.json" <<'PY' || fail "the analysis does not count the slow runs"
import json, sys
c = json.load(open(sys.argv[1]))["workloads"][0]["contention"]
assert c["slow_cpu_runs"] == 4 and c["speed_pct_min"] == 50, c
PY
"$build/render/rundown-render" -o "$tmp/slowrep" --formats md "$tmp/slow.json" 2>/dev/null ||
    fail "render of the slow runs failed"
grep -q 'CPUs at 50 % of their best speed or faster (4 of the contended runs on slow CPUs)' \
    "$tmp"/slowrep/*.md || fail "the report's machine line does not name the slow CPUs"
#    In mode wait the run waits until the CPUs are fast again.
printf '1 1\n1 2\n1 2\n1 1\n' >"$tmp/dip.speed"
RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/dip.speed \
    "$C" run --contention-wait 5 -r 1 -o "$tmp/dip.jsonl" 'sleep 0.05' 2>"$tmp/dip.err" ||
    fail "run after a slow spell failed: $(cat "$tmp/dip.err")"
grep -q 'the CPUs run at 50 % of their best speed' "$tmp/dip.err" ||
    fail "no note says the CPUs are slow: $(cat "$tmp/dip.err")"
! grep -q '"contended"' "$tmp/dip.jsonl" || fail "the slow spell was not waited out"
grep -q 'contention_wait_s' "$tmp/dip.jsonl" || fail "the wait for speed is not recorded"
#    check says busy when the speed fell in its window.
printf '1\n1.5\n' >"$tmp/check.speed"
RUNDOWN_SPEED_PROBE=$tmp/check.speed "$C" check --proc-root "$tmp/proc" --window 0.6 \
    >"$tmp/scheck.out" && fail "check with a slow CPU passed: $(cat "$tmp/scheck.out")"
grep -q '^BUSY *speed .*67 % of their best speed' "$tmp/scheck.out" ||
    fail "check does not name the speed: $(cat "$tmp/scheck.out")"
#    A suite's contended run does not count towards its workload's runs:
#    the run made again in its place does, as the analysis counts them
#    (the 2nd probe is slow: the first measured run is contended and made
#    again; then 3 good runs of 3, where counting the contended one gave
#    2 and an open workload); the run made again says its round.
mkdir -p "$tmp/sw"
printf '1\n2\n1\n' >"$tmp/sw/slow.speed"
cat >"$tmp/sw/s.json" <<'JSON'
{"schema": "rundown.suite/1", "name": "sw", "root": ".", "until": "settled",
 "runs": {"min": 3, "max": 3}, "contention": {"mode": "warn"},
 "workloads": [{"name": "one", "class": "cpu", "primary": {"metric": "v_ms", "better": "lower"},
                "command": ["sh", "-c", "sleep 0.6; echo rundown:metric v_ms=100"]}]}
JSON
(cd "$tmp/sw" && RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/sw/slow.speed \
    "$C" suite -o out s.json 2>"$tmp/sw/err") || fail "suite on a slow spell failed: $(cat "$tmp/sw/err")"
"$A" -o "$tmp/sw/a.json" "$tmp/sw/out/sw.jsonl" 2>/dev/null
python3 - "$tmp/sw" <<'PY' || fail "a contended run counted towards the suite's runs"
import json, sys
d = sys.argv[1]
runs = [json.loads(l) for l in open(d + "/out/sw.jsonl")]
m = [bool(r.get("contended")) for r in runs if r["phase"] == "measure"]
assert m.count(False) == 3 and m[0], m
# the run made again in place of run 1 is numbered after the plan's runs
# but belongs to round 1 (info "round": what pairs it within rounds)
good = [r for r in runs if r["phase"] == "measure" and not r.get("contended")]
assert good[0]["run"] > 3 and good[0].get("info", {}).get("round") == "1", good[0]
assert all("round" not in r.get("info", {}) for r in good[1:]), good[1:]
c = json.load(open(d + "/a.json"))["workloads"][0]["collection"]
assert c["stopped"] == "settled" and c["configs"][0]["runs"] == 3, c
PY

# 8. A host slow to wake one CPU from another slows every server while the
#    CPUs' speed stays: the wake-up read with the speed (after '|', the
#    round trip in us) sets runs aside on its own, 15 then 30 us = 50 %
#    of the best, below the default 67 %; --min-wakeup and the suite's
#    "min_wakeup" move the threshold; check names it.
printf '1 1 | 15\n1 1 | 30\n' >"$tmp/wake.speed"
RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/wake.speed \
    "$C" run --contention warn -r 2 -o "$tmp/wake.jsonl" 'sleep 0.6' 2>"$tmp/wake.err" ||
    fail "run on slow wake-ups failed: $(cat "$tmp/wake.err")"
[ "$(grep -c '"contended_by":"wakeup"' "$tmp/wake.jsonl")" = 4 ] ||
    fail "slow wake-ups: expected 2 runs and 2 redos set aside by the wake-up: $(cat "$tmp/wake.err")"
grep -q '"machine_wakeup_pct":50' "$tmp/wake.jsonl" || fail "slow wake-ups: no machine_wakeup_pct 50"
grep -q '"machine_wakeup_us":30' "$tmp/wake.jsonl" || fail "slow wake-ups: no machine_wakeup_us 30"
grep -q '"machine_speed_pct":100' "$tmp/wake.jsonl" || fail "slow wake-ups: the speed moved"
grep -q 'with cross-CPU wake-ups below 67 % of their best, the slowest at 50 %' "$tmp/wake.err" ||
    fail "slow wake-ups: the summary does not say why: $(cat "$tmp/wake.err")"
"$A" -o "$tmp/wake.json" "$tmp/wake.jsonl" 2>/dev/null
python3 - "$tmp/wake.json" <<'PY' || fail "the analysis does not count the slow wake-ups"
import json, sys
c = json.load(open(sys.argv[1]))["workloads"][0]["contention"]
assert c["slow_wakeup_runs"] == 4 and c["wakeup_pct_min"] == 50 and c["slow_cpu_runs"] == 0, c
PY
"$build/render/rundown-render" -o "$tmp/wakerep" --formats md "$tmp/wake.json" 2>/dev/null ||
    fail "render of the slow wake-ups failed"
grep -q 'cross-CPU wake-ups at 50 % of their best or faster (4 of the contended runs with slow wake-ups)' \
    "$tmp"/wakerep/*.md || fail "the report's machine line does not name the slow wake-ups"
RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/wake.speed \
    "$C" run --contention warn --min-wakeup 40 -r 2 -o "$tmp/wake40.jsonl" 'sleep 0.6' \
    2>"$tmp/wake40.err" || fail "run with --min-wakeup 40 failed: $(cat "$tmp/wake40.err")"
! grep -q '"contended"' "$tmp/wake40.jsonl" || fail "--min-wakeup 40 still set runs aside"
mkdir -p "$tmp/ww"
for v in 40 '"x"'; do
    cat >"$tmp/ww/s.json" <<JSON
{"schema": "rundown.suite/1", "name": "ww", "root": ".",
 "runs": 2, "contention": {"mode": "warn", "min_wakeup": $v},
 "workloads": [{"name": "one", "class": "cpu", "primary": {"metric": "v_ms", "better": "lower"},
                "command": ["sh", "-c", "sleep 0.6; echo rundown:metric v_ms=100"]}]}
JSON
    (cd "$tmp/ww" && rm -rf out && RUNDOWN_PROC_ROOT=$tmp/proc RUNDOWN_SPEED_PROBE=$tmp/wake.speed \
        "$C" suite -o out s.json 2>"$tmp/ww/err")
    rc=$?
    if [ "$v" = 40 ]; then
        [ $rc = 0 ] || fail "suite with min_wakeup 40 failed: $(cat "$tmp/ww/err")"
        ! grep -q '"contended"' "$tmp/ww/out/ww.jsonl" || fail "the suite's min_wakeup is not used"
    else
        [ $rc = 1 ] || fail "a bad min_wakeup exited $rc"
        grep -q "s.json:.*expected 'contention.min_wakeup' to be a percentage" "$tmp/ww/err" ||
            fail "a bad min_wakeup is not named: $(cat "$tmp/ww/err")"
    fi
done
printf '1 | 15\n1 | 30\n' >"$tmp/wcheck.speed"
RUNDOWN_SPEED_PROBE=$tmp/wcheck.speed "$C" check --proc-root "$tmp/proc" --window 0.6 \
    >"$tmp/wcheck.out" && fail "check with slow wake-ups passed: $(cat "$tmp/wcheck.out")"
grep -q '^BUSY *wakeup .*15.0-30.0 us a round trip.*50 % of the fastest' "$tmp/wcheck.out" ||
    fail "check does not name the wake-up: $(cat "$tmp/wcheck.out")"

# 6. On a really quiet machine: a hog that stops after 2 s is waited out.
if "$C" check --window 0.5 >/dev/null; then
    hog 2
    sleep 0.3
    "$C" run -r 1 -o "$tmp/wait.jsonl" 'sleep 0.3' 2>"$tmp/wait.err" || fail "run after the hog"
    ! grep -q '"contended"' "$tmp/wait.jsonl" || fail "the hog was not waited out: $(cat "$tmp/wait.err")"
    grep -q 'contention_wait_s' "$tmp/wait.jsonl" || fail "no wait recorded"
    stop_hogs
else
    echo "note: the machine is busy without our hog; the wait-out case is skipped" >&2
fi
echo ok
