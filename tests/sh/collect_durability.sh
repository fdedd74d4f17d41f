#!/usr/bin/env bash
# collect_durability.sh BUILD ROOT - a store never loses, glues or doubles
# a run (issue 17; docs/reliability.md, "Stores under concurrency, limits
# and signals"). Each check names what failed before the fix:
#   1. 4 concurrent `run` writers x 5 runs: exactly 20 runs, numbers 1..20
#      once each (they were stored twice), the store reads with analyze
#   2. concurrent imports against a file-size limit: the store holds exactly
#      the runs of the imports that said they succeeded (the rollback cut
#      other writers' runs)
#   3. one import past `ulimit -f`: exit 3, the store as it was (SIGXFSZ
#      killed it and left half a record)
#   4. a last line without its newline: a whole record gets the newline, a
#      cut one refuses the append with file:line (the next run was glued on)
#   5. a second suite on the store of a running one is refused at once
#      (both ran, storing runs 1-5 twice); an import meanwhile waits its turn
#   6. a writer SIGKILLed mid-run leaves a store that reads, numbers go on
#   7. nohup: an inherited SIGHUP ignore is kept (it died with 129)
#   8. SIGTERM during a slow --prepare and during a slow version probe: no
#      process is left (the probe outlived rundown)
# About 10 s.
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
MARK="rddur$$"
RA=$BUILD/analyze/rundown-analyze

runs_ok() {  # STORE N: N records, each (workload, config, phase, run) once
    python3 - "$1" "$2" <<'PY'
import json, sys, collections
recs = [json.loads(l) for l in open(sys.argv[1])]
keys = collections.Counter((r["workload"], json.dumps(r["config"], sort_keys=True),
                            r["phase"], r["run"]) for r in recs)
dup = [k for k, n in keys.items() if n > 1]
if len(recs) != int(sys.argv[2]) or dup:
    print("records", len(recs), "expected", sys.argv[2], "duplicates", dup[:5])
    sys.exit(1)
PY
}
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

# 1. Concurrent run writers.
for i in 1 2 3 4; do
    "$RC" run -r 5 --workload w --env e -o conc.jsonl -- true 2>"conc.$i.err" &
done
wait
runs_ok conc.jsonl 20 || fail "concurrent runs: not 20 distinct runs"
python3 -c '
import json, sys
runs = sorted(json.loads(l)["run"] for l in open("conc.jsonl"))
sys.exit(runs != list(range(1, 21)))' || fail "concurrent runs: numbers are not 1..20"
"$RA" conc.jsonl >/dev/null || fail "concurrent runs: analyze rejects the store"

# 2. Concurrent imports against a file-size limit (4 KiB): some fit, the
# others fail with EFBIG and take back only their own bytes.
python3 -c '
import json
for i in range(4):
    json.dump({"results": [{"command": "c%d" % i, "times": [0.1 + k / 100 for k in range(8)]}]},
              open("hf%d.json" % i, "w"))'
expect=0
for round in 1 2 3; do
    rm -f lim.jsonl ok.*
    (
        ulimit -f 4
        for i in 0 1 2 3; do
            ( "$RC" import -t hyperfine -w w -l i=$i -o lim.jsonl hf$i.json 2>/dev/null && touch ok.$i ) &
        done
        wait
    )
    n=$(ls ok.* 2>/dev/null | wc -l)
    [ "$n" -ge 1 ] && [ "$n" -le 3 ] || echo "note: round $round: $n of 4 imports fit"
    runs_ok lim.jsonl $((n * 8)) || fail "limit round $round: the store does not hold exactly the $n successful imports"
    for i in 0 1 2 3; do
        got=$(grep -c "\"i\":\"$i\"" lim.jsonl)
        if [ -e ok.$i ]; then [ "$got" -eq 8 ] || fail "limit round $round: import $i said ok, $got runs stored"
        else [ "$got" -eq 0 ] || fail "limit round $round: import $i failed, $got runs stored"; fi
    done
done

# 3. One import past the limit: EFBIG, exit 3, store unchanged (a whole store).
"$RC" import -t hyperfine -w w -o one.jsonl hf0.json || fail "import: setup"
cp one.jsonl one.before
( ulimit -f 3; "$RC" import -t hyperfine -w w -o one.jsonl hf1.json hf2.json 2>xfsz.err; echo $? >xfsz.rc )
[ "$(cat xfsz.rc)" = 3 ] || fail "ulimit -f: exit $(cat xfsz.rc), expected 3"
grep -q "File too large" xfsz.err || fail "ulimit -f: no EFBIG message: $(cat xfsz.err)"
cmp -s one.jsonl one.before || fail "ulimit -f: the store changed"

# 4. A last line without its newline.
head -c -1 one.before >cut.jsonl  # a whole record, its newline cut
"$RC" run -r 1 --workload w --env e -o cut.jsonl -- true || fail "repair: run failed"
runs_ok cut.jsonl 9 || fail "repair: the store does not read as 9 runs"
"$RA" cut.jsonl >/dev/null || fail "repair: analyze rejects the store"
# The second record cut in the middle (records are long: they carry digests).
head -c $(( $(head -n 1 one.before | wc -c) + 30 )) one.before >glue.jsonl
cp glue.jsonl glue.before
"$RC" run -r 1 --workload w --env e -o glue.jsonl -- true 2>glue.err
rc=$?
[ $rc -eq 1 ] || fail "cut record: exit $rc, expected 1"
grep -q "^rundown-collect: glue.jsonl:2:" glue.err || fail "cut record: no file:line: $(cat glue.err)"
cmp -s glue.jsonl glue.before || fail "cut record: the store changed"
"$RC" import -t hyperfine -w w -o glue.jsonl hf0.json 2>glue2.err
[ $? -eq 1 ] && grep -q "glue.jsonl:2:" glue2.err || fail "cut record: import did not refuse: $(cat glue2.err)"
cmp -s glue.jsonl glue.before || fail "cut record: import changed the store"

# 5. A second suite on the same store, while the first runs.
cat >s.json <<JSON
{"schema": "rundown.suite/1", "name": "dur", "workloads": [
  {"name": "w", "class": "cpu", "runs": 5, "command": ["sh", "-c", "sleep 0.3; : $MARK"]}]}
JSON
"$RC" suite -o sd s.json 2>suite1.err &
spid=$!
for i in $(seq 1 100); do [ -s sd/dur.jsonl ] && break; sleep 0.05; done
start=$(date +%s.%N)
"$RC" suite --resume -o sd s.json 2>suite2.err
rc=$?
took=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
[ $rc -eq 3 ] || fail "second suite: exit $rc, expected 3"
grep -q "sd/dur.jsonl: another suite is running on this store" suite2.err ||
    fail "second suite: message: $(cat suite2.err)"
python3 -c "import sys; sys.exit($took > 1.0)" || fail "second suite: took $took s to refuse"
"$RC" import -t hyperfine -w other -o sd/dur.jsonl hf0.json || fail "import during a suite"
wait $spid || fail "first suite: exit $?"
runs_ok sd/dur.jsonl 13 || fail "suite + import: not 5 + 8 distinct runs"
[ ! -e sd/dur.jsonl.lock ] || fail "suite: its lock file is left"

# 6. SIGKILL mid-run: the store reads and numbering goes on.
"$RC" run -r 5 --workload k --env e -o kill.jsonl -- sleep 0.4 2>/dev/null &
kpid=$!
for i in $(seq 1 100); do [ -s kill.jsonl ] && break; sleep 0.05; done
sleep 0.2
exec 3>&2 2>/dev/null
kill -KILL $kpid
wait $kpid
exec 2>&3 3>&-
n=$(wc -l <kill.jsonl)
"$RA" kill.jsonl >/dev/null || fail "SIGKILL: analyze rejects the store"
"$RC" run -r 1 --workload k --env e -o kill.jsonl -- true || fail "SIGKILL: next run failed"
runs_ok kill.jsonl $((n + 1)) || fail "SIGKILL: the store does not read as $((n + 1)) runs"

# 7. nohup: SIGHUP inherited as ignored stays ignored.
( trap '' HUP; exec "$RC" run -r 3 --workload h --env e -o hup.jsonl -- sleep 0.2 ) 2>hup.err &
hpid=$!
sleep 0.3
kill -HUP $hpid
wait $hpid
rc=$?
[ $rc -eq 0 ] || fail "nohup: exit $rc, expected 0"
runs_ok hup.jsonl 3 || fail "nohup: not 3 runs"

# 8. SIGTERM during a slow --prepare, and during a slow version probe.
rm -f prep.pid
"$RC" run -r 1 --workload p --env e -o prep.jsonl --prepare 'echo $$ >prep.pid; exec sleep 30' \
    -- true 2>prep.err &
ppid_=$!
for i in $(seq 1 100); do [ -s prep.pid ] && break; sleep 0.05; done
kill -TERM $ppid_
wait $ppid_
rc=$?
[ $rc -eq 143 ] || fail "prepare: exit $rc, expected 143"
sleep 0.1
alive "$(cat prep.pid)" && { fail "prepare: its sleep outlived rundown"; kill -KILL "$(cat prep.pid)"; }
cat >probe.json <<JSON
{"schema": "rundown.suite/1", "name": "probe",
 "runtimes": {"slow": {"cmd": ["true"],
   "version_cmd": ["sh", "-c", "echo \$\$ >$PWD/probe.pid; exec sleep 30"]}},
 "workloads": [{"name": "w", "class": "cpu", "runs": 1,
   "matrix": {"runtime": ["slow"]}, "command": ["{runtime.cmd}"]}]}
JSON
rm -f probe.pid
"$RC" suite -o pr probe.json 2>probe.err &
qpid=$!
for i in $(seq 1 100); do [ -s probe.pid ] && break; sleep 0.05; done
[ -s probe.pid ] || fail "probe: the version command never ran"
kill -TERM $qpid
wait $qpid
rc=$?
[ $rc -eq 143 ] || fail "probe: exit $rc, expected 143"
sleep 0.1
if [ -s probe.pid ] && alive "$(cat probe.pid)"; then
    fail "probe: the version command outlived rundown"
    kill -KILL "$(cat probe.pid)"
fi
ls pr/env-*.json >/dev/null 2>&1 && fail "probe: an environment was written from a stopped probe"

finish collect_durability
