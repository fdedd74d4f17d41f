#!/usr/bin/env bash
# speed_memory.sh BUILD ROOT - `rundown-collect check` and the best speed it
# remembers (collect/speedmemory.h) from the command line: the first check
# remembers its best; a later one whose every reading is equally slow (both
# CPUs slowed all window, as on 2026-12-04 at 22:42 UTC) is busy against it
# and says so in its JSON; --forget-speed starts over; --no-speed-memory
# judges by the window alone and writes nothing; a damaged file is a note,
# exit 0, and is rewritten; RUNDOWN_SPEED_MEMORY names the file or turns it
# off; a collection (run) judges by it and records which reference it used.
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

[ "$fails" = 0 ] || exit 1
echo ok
