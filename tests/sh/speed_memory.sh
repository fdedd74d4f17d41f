#!/usr/bin/env bash
# speed_memory.sh BUILD ROOT - `rundown-collect check` and the best speed it
# remembers (collect/speedmemory.h) from the command line: the first check
# remembers its best; a later one whose every reading is equally slow (both
# CPUs slowed all window, as on 2026-12-04 at 22:42 UTC) is busy against it
# and says so in its JSON; --forget-speed starts over; --no-speed-memory
# judges by the window alone and writes nothing; a damaged file is a note,
# exit 0, and is rewritten; RUNDOWN_SPEED_MEMORY names the file or turns it
# off; a collection (run) judges by it and records which reference it used;
# run and suite take --cache-dir and --no-speed-memory as check does (http
# parses them alike); one collection is one session of the misses rule; a
# window of one probe is judged against the remembered best; the
# store-reload series is judged, named and remembered on its own.
# Fixed /proc and /sys (--proc-root, --sys-root, RUNDOWN_PROC_ROOT) and
# fixed speed readings (RUNDOWN_SPEED_PROBE): nothing here depends on how
# busy the machine is.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
mkdir -p proc sys
echo "cpu  100 0 100 1000 0 0 0 0 0 0" >proc/stat
export RUNDOWN_SPEED_PROBE=$TMP/speed
unset RUNDOWN_SPEED_MEMORY
chk() { "$RC" check --window 0.6 --proc-root proc --sys-root sys "$@"; }
json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }

echo "0.6 0.6" >speed
chk --cache-dir cache >out 2>err || fail "first check: not quiet: $(cat out err)"
[ "$(python3 -c 'import json; print(json.load(open("cache/speed.json"))["entries"][0]["best_ms"])')" = 0.6 ] \
    || fail "first check: 0.6 not remembered: $(cat cache/speed.json)"

# Both CPUs at 0.85 ms all window: quiet by the window, busy by the memory.
echo "0.85 0.85" >speed
chk --cache-dir cache --no-speed-memory >/dev/null 2>&1 && fail "--no-speed-memory with --cache-dir: not a usage error"
chk --no-speed-memory --json >out.json || fail "--no-speed-memory: the window alone is quiet"
[ "$(json out.json speed_reference)" = window ] || fail "--no-speed-memory: reference $(json out.json speed_reference)"
chk --cache-dir cache --json >out.json
[ $? = 1 ] || fail "slow against the remembered best: not busy (exit 1)"
[ "$(json out.json speed_reference)" = remembered ] || fail "reference: $(json out.json speed_reference)"
[ "$(json out.json speed_remembered_best_ms)" = 0.6 ] || fail "remembered: $(json out.json speed_remembered_best_ms)"
chk --cache-dir cache >out
grep -q "against the best remembered from earlier checks (0.6 ms; this window's best is 71 % of it)" out \
    || fail "the finding does not name the remembered best: $(cat out)"
grep -q -- "--forget-speed" out || fail "the advice does not name --forget-speed: $(cat out)"

# --forget-speed: the window again, and 0.85 remembered.
chk --cache-dir cache --forget-speed >out || fail "--forget-speed: not quiet: $(cat out)"
grep -q "the remembered best speed was forgotten" out || fail "--forget-speed: not said: $(cat out)"
chk --cache-dir cache --json >out.json || fail "after --forget-speed: not quiet"
[ "$(json out.json speed_remembered_best_ms)" = 0.85 ] || fail "after --forget-speed: $(json out.json speed_remembered_best_ms)"

# A damaged file: a note, exit 0, rewritten.
printf '{"schema":"rundown.speed/1","entries":[' >cache/speed.json
chk --cache-dir cache >out 2>err || fail "damaged memory: the check failed: $(cat out err)"
grep -q "set aside, it is rewritten" out || fail "damaged memory: no note: $(cat out)"
python3 -c 'import json; json.load(open("cache/speed.json"))' || fail "damaged memory: not rewritten"

# RUNDOWN_SPEED_MEMORY: a file of its own, or off.
RUNDOWN_SPEED_MEMORY=$TMP/env/mine.json chk >/dev/null || fail "RUNDOWN_SPEED_MEMORY=FILE: not quiet"
[ -s env/mine.json ] || fail "RUNDOWN_SPEED_MEMORY=FILE: not written"
HOME=$TMP/home XDG_CACHE_HOME= RUNDOWN_SPEED_MEMORY=off chk >/dev/null || fail "off: not quiet"
[ -e home ] && fail "RUNDOWN_SPEED_MEMORY=off: something was written under HOME"
HOME=$TMP/home XDG_CACHE_HOME= chk >/dev/null || fail "HOME: not quiet"
[ -s home/.cache/rundown/speed.json ] || fail "the default: not in ~/.cache/rundown"

# A collection: every reading 0.85 against a remembered 0.6 is contended
# by the speed, and its runs say the reference was the remembered one.
echo "0.6 0.6" >speed
RUNDOWN_SPEED_MEMORY=$TMP/coll.json chk >/dev/null || fail "collection: the first check is busy"
echo "0.85 0.85" >speed
RUNDOWN_SPEED_MEMORY=$TMP/coll.json RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" run --contention warn -r 2 -o runs.jsonl true 2>err || fail "run: $(cat err)"
grep -q "against the best remembered from earlier checks (after a change of hardware: rundown-collect check --forget-speed)" err \
    || fail "run's summary does not say the remembered best judged: $(cat err)"
check runs.jsonl "measured runs judged against the remembered best" \
    "all(r['info'].get('machine_speed_reference') == 'remembered' and r['info'].get('contended_by') == 'speed' for r in recs if r['phase'] == 'measure')"
RUNDOWN_SPEED_MEMORY=off RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" run --contention warn -r 2 -o off.jsonl true 2>err || fail "run, memory off: $(cat err)"
check off.jsonl "memory off: judged by the collection alone" \
    "all('machine_speed_reference' not in r.get('info', {}) and not r.get('contended') for r in recs)"

# run, http and suite take check's --cache-dir and --no-speed-memory, with
# check's meaning: --cache-dir DIR judges by and remembers in DIR/speed.json
# (over RUNDOWN_SPEED_MEMORY); --no-speed-memory judges by the collection
# alone and writes nothing; both at once are a usage error.
echo "0.6 0.6" >speed
RUNDOWN_PROC_ROOT=$TMP/proc "$RC" run --contention warn --cache-dir rcache -r 2 -o rc1.jsonl true \
    2>err || fail "run --cache-dir: $(cat err)"
[ "$(python3 -c 'import json; print([e["best_ms"] for e in json.load(open("rcache/speed.json"))["entries"] if e["probe"] == "script"])')" = "[0.6]" ] \
    || fail "run --cache-dir: 0.6 not remembered there: $(cat rcache/speed.json 2>&1)"
echo "0.85 0.85" >speed
RUNDOWN_SPEED_MEMORY=off RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" run --contention warn --cache-dir rcache -r 2 -o rc2.jsonl true 2>err || fail "run --cache-dir again: $(cat err)"
check rc2.jsonl "run --cache-dir (over RUNDOWN_SPEED_MEMORY=off): judged against the remembered best" \
    "all(r['info'].get('machine_speed_reference') == 'remembered' for r in recs if r['phase'] == 'measure')"
cp coll.json coll.before
RUNDOWN_SPEED_MEMORY=$TMP/coll.json RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" run --contention warn --no-speed-memory -r 2 -o rn.jsonl true 2>err || fail "run --no-speed-memory: $(cat err)"
check rn.jsonl "run --no-speed-memory: judged by the collection alone" \
    "all('machine_speed_reference' not in r.get('info', {}) and not r.get('contended') for r in recs)"
cmp -s coll.json coll.before || fail "run --no-speed-memory: the memory was written"
cat >s.json <<'JSON'
{"schema":"rundown.suite/1","name":"m","runs":2,
 "workloads":[{"name":"w","class":"cpu","command":"true"}]}
JSON
RUNDOWN_PROC_ROOT=$TMP/proc "$RC" suite --contention warn --cache-dir rcache -o sdir s.json 2>err \
    || fail "suite --cache-dir: $(cat err)"
check sdir/m.jsonl "suite --cache-dir: judged against the remembered best" \
    "all(r['info'].get('machine_speed_reference') == 'remembered' for r in recs if r['phase'] == 'measure')"
RUNDOWN_SPEED_MEMORY=$TMP/coll.json RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" suite --contention warn --no-speed-memory -o sdir2 s.json 2>err || fail "suite --no-speed-memory: $(cat err)"
check sdir2/m.jsonl "suite --no-speed-memory: judged by the collection alone" \
    "all('machine_speed_reference' not in r.get('info', {}) for r in recs)"
cmp -s coll.json coll.before || fail "suite --no-speed-memory: the memory was written"
for cmd in "run true" "suite s.json" "http --server true --url http://127.0.0.1:1/ -- true"; do
    # shellcheck disable=SC2086
    "$RC" ${cmd%% *} --no-speed-memory --cache-dir x ${cmd#* } >/dev/null 2>err
    rc=$?
    [ $rc = 2 ] || fail "${cmd%% *} --no-speed-memory --cache-dir: exit $rc, not 2"
    grep -q -- "--no-speed-memory: expected without --cache-dir" err \
        || fail "${cmd%% *} --no-speed-memory --cache-dir: $(cat err)"
    "$RC" ${cmd%% *} --help >help.txt
    grep -q -- "--no-speed-memory" help.txt && grep -q -- "--cache-dir DIR" help.txt \
        || fail "${cmd%% *} --help does not list the speed memory's options"
done

# One collection is one session of the misses rule (docs/methods.md 6d):
# its pre-flight check (in the environment file, run while the contention
# guard is not off) judges by the remembered best but notes nothing; the
# guard notes the collection once, at its end. Before, both noted, and one
# slow collection was two of the three misses. Real /proc and /sys here:
# the keys a check and a collection make on this machine (the check's exit
# depends on the machine's load, and is not looked at).
echo "0.6 0.6" >speed
"$RC" check --window 0.3 --cache-dir once >/dev/null
echo "0.85 0.85" >speed
mkdir oc
RUNDOWN_CONTENTION=warn "$RC" run --cache-dir once -r 1 -o oc/once.jsonl true 2>err || fail "one collection: $(cat err)"
python3 - <<'PY' || fail "one collection: $(cat once/speed.json)"
import glob, json
e = [e for e in json.load(open("once/speed.json"))["entries"] if e["probe"] == "script"]
assert len(e) == 1 and e[0]["best_ms"] == 0.6, e
assert e[0]["misses"] == 1, f"one slow collection counted {e[0]['misses']} misses, expected 1"
env = json.load(open(glob.glob("oc/env-*.json")[0]))
chk = env["check"]
assert chk["speed_reference"] == "remembered" and chk["speed_remembered_best_ms"] == 0.6, chk
PY
RUNDOWN_CONTENTION=warn "$RC" run --cache-dir once -r 1 -o oc/once.jsonl true 2>err || fail "one collection: $(cat err)"
[ "$(python3 -c 'import json; print([e["misses"] for e in json.load(open("once/speed.json"))["entries"] if e["probe"] == "script"])')" = "[2]" ] \
    || fail "two collections: not two misses: $(cat once/speed.json)"

# A window of one probe (0.3 s: the probes are 0.25 s apart; the
# pre-flight check's): nothing to compare it with but the remembered best,
# which judges it as a longer window's readings (0.6 / 0.85 = 71 %), both
# series; without a memory it is still "one probe, nothing to compare".
printf '0.6 0.6 ; 0.3 0.3\n' >speed
chk --cache-dir one >/dev/null || fail "one probe: the first check is busy"
printf '0.85 0.85 ; 0.45 0.45\n' >speed
chk --window 0.1 --no-speed-memory >out || fail "one probe, no memory: busy: $(cat out)"
grep -q "CPU speed: one probe, nothing to compare it with" out || fail "one probe, no memory: $(cat out)"
chk --window 0.1 --cache-dir one --json >out.json && fail "one probe slow against the remembered best: quiet"
python3 -c 'import json; j = json.load(open("out.json")); assert j["speed_probes"] == 1 and round(j["speed_min_pct"], 1) == 70.6 and j["speed_reference"] == "remembered" and round(j["speed_store_min_pct"], 1) == 66.7 and j["speed_store_reference"] == "remembered", j' \
    || fail "one probe against the remembered best: $(cat out.json)"
chk --window 0.1 --cache-dir one >out
grep -q '^BUSY *speed .*71 % of their best speed or faster over 1 probe, against the best remembered' out \
    || fail "one probe: the speed finding: $(cat out)"
grep -q '^BUSY *speedstore *CPU 0 ran the store-reload chain at 67 % of its best, its one probe, against the best remembered' out \
    || fail "one probe: the store finding: $(cat out)"

# The store-reload series (after ';' on a reading's line): the
# multiply-add chain steady on both CPUs while CPU 1's store chain went
# from 0.3 to 0.6 ms (the spell of 2026-12-05, docs/methods.md 6d) is busy
# for check and contended for a run, the series named; each series is
# remembered under its own key, and one slow against its remembered best
# is busy too. An old script line (no ';') judges nothing by it.
printf '1 1 ; 0.3 0.3\n1 1 ; 0.3 0.6\n' >speed
chk --no-speed-memory >out && fail "store series slow: check passed: $(cat out)"
grep -q '^BUSY *speedstore *CPU 1 ran the store-reload chain at 50 % of its best' out \
    || fail "store series slow: check does not name it: $(cat out)"
grep -q '^ok *speed .*100 % of their best speed' out || fail "store series slow: the chain's finding moved: $(cat out)"
chk --no-speed-memory --json >out.json
python3 -c 'import json; j = json.load(open("out.json")); assert j["speed_store_min_pct"] == 50 and j["speed_min_pct"] == 100 and j["speed_store_slowest_cpu"] == 1, j' \
    || fail "store JSON: $(cat out.json)"
python3 -c 'import json,sys; c = json.load(open("out.json"))["speed_cpus"]; assert c[1]["store_pct"] == 50 and c[1]["pct"] == 100, c' \
    || fail "store JSON per CPU: $(cat out.json)"
# Every reading alike (CPUs of one kind: CPU 1's store chain against CPU
# 0's best), so runs closer together than a probe's interval are judged too.
printf '1 1 ; 0.3 0.6\n' >speed
RUNDOWN_SPEED_MEMORY=off RUNDOWN_PROC_ROOT=$TMP/proc \
    "$RC" run --contention warn -r 2 -o store.jsonl true 2>err || fail "run, store slow: $(cat err)"
check store.jsonl "runs on a slow store series are contended by the speed and say which series" \
    "[r.get('contended') and r['info'].get('contended_by') == 'speed' and r['info'].get('machine_speed_slow') == 'store' and r['metrics']['machine_speed_store_pct'] == 50 and r['metrics']['machine_speed_pct'] == 100 for r in recs if r['phase'] == 'measure'].count(True) >= 2"
grep -q 'the slowest at 100 % by the multiply-add chain and 50 % by the store-reload chain' err \
    || fail "run's summary does not name the store series: $(cat err)"
# The analysis counts them as runs on slow CPUs (info.contended_by "speed").
"$BUILD/analyze/rundown-analyze" -o store.json store.jsonl 2>/dev/null || fail "analyze of the store runs"
python3 -c 'import json; c = json.load(open("store.json"))["workloads"][0]["contention"]; assert c["slow_cpu_runs"] >= 2 and c["speed_pct_min"] == 100, c' \
    || fail "the analysis does not count the runs slow by the store series"
printf '1 1 ; 0.3 0.3\n' >speed
chk --cache-dir store >/dev/null || fail "store memory: the first check is busy"
printf '1 1 ; 0.45 0.45\n' >speed
chk --cache-dir store --json >out.json && fail "slow against the remembered store best: quiet"
[ "$(json out.json speed_store_reference)" = remembered ] || fail "store reference: $(cat out.json)"
[ "$(json out.json speed_store_remembered_best_ms)" = 0.3 ] || fail "store remembered: $(cat out.json)"
[ "$(json out.json speed_reference)" = window ] || fail "the chain's reference moved: $(cat out.json)"
python3 -c 'import json; p = sorted(e["probe"] for e in json.load(open("store/speed.json"))["entries"]); assert p == ["script", "script/store"], p' \
    || fail "the two series are not remembered apart: $(cat store/speed.json)"
printf '1 1\n1 1\n' >speed
chk --no-speed-memory --json >out.json || fail "an old script line: not quiet"
python3 -c 'import json; assert "speed_store_probes" not in json.load(open("out.json"))' \
    || fail "an old script line read a store series: $(cat out.json)"

[ "$fails" = 0 ] || exit 1
echo ok
