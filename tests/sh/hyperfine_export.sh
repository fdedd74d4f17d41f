#!/usr/bin/env bash
# hyperfine_export.sh BUILD ROOT - `rundown-collect run --export-json` and
# `--export-csv` write hyperfine's layouts: the installed hyperfine and
# rundown run the same commands (a parameter list, -n, one run, -i with a
# failing command) and their files are compared key by key (names, order,
# the type of each value), then rundown's values against its own store.
# Issue 29 item 2: "--export-json (hyperfine's own JSON layout, so
# hyperfine's scripts read it)".
. "$(dirname "$0")/require.bash" hyperfine python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"

# run_both NAME ARGS...: hyperfine and rundown with the same arguments.
run_both() {
    local name=$1
    shift
    hyperfine -N --style none --export-json "h-$name.json" --export-csv "h-$name.csv" "$@" \
        >/dev/null 2>&1 || fail "$name: hyperfine failed"
    "$RC" run -q -o "$name.jsonl" --export-json "r-$name.json" --export-csv "r-$name.csv" "$@" \
        || fail "$name: rundown failed"
}

run_both scan --runs 3 -L x 1,2 'sleep 0.00{x}'
run_both named --runs 2 -n first 'sleep 0.001' 'sleep 0.002'
run_both one --runs 1 'sleep 0.001'
run_both failing --runs 2 -i 'sh -c "exit 3"'

python3 - <<'PY' || fails=$((fails + 1))
import csv, json, statistics as st

def shape(v):
    """A value's type as hyperfine's scripts see it."""
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(x) for x in v[:1]]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return type(v).__name__
    return "int" if isinstance(v, int) else "number"

def numeric(v):  # hyperfine writes 0.0 where rundown may write 0
    return shape(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else "number"

ok = True
for name in ("scan", "named", "one", "failing"):
    h, r = json.load(open(f"h-{name}.json")), json.load(open(f"r-{name}.json"))
    if list(h) != list(r):
        print(f"FAIL: {name}: top-level keys {list(r)} != hyperfine's {list(h)}"); ok = False
    if len(h["results"]) != len(r["results"]):
        print(f"FAIL: {name}: {len(r['results'])} results, hyperfine {len(h['results'])}"); ok = False
    for hr, rr in zip(h["results"], r["results"]):
        if list(hr) != list(rr):
            print(f"FAIL: {name}: keys {list(rr)} != hyperfine's {list(hr)}"); ok = False
        for k in hr:
            hs = {kk: numeric(v) for kk, v in hr.items()}[k]
            rs = {kk: numeric(v) for kk, v in rr.items()}.get(k)
            if k in ("times", "exit_codes"):
                hs, rs = [shape(x) for x in hr[k]], [shape(x) for x in rr.get(k, [])]
            if hs != rs:
                print(f"FAIL: {name}: {k}: {rs} != hyperfine's {hs}"); ok = False
        for k in ("command", "parameters", "exit_codes"):
            if hr.get(k) != rr.get(k):
                print(f"FAIL: {name}: {k}: {rr.get(k)!r} != hyperfine's {hr.get(k)!r}"); ok = False
    hc, rc = list(csv.reader(open(f"h-{name}.csv"))), list(csv.reader(open(f"r-{name}.csv")))
    if hc[0] != rc[0] or [x[0] for x in hc] != [x[0] for x in rc]:
        print(f"FAIL: {name}: CSV {rc} against hyperfine's {hc}"); ok = False
    if name == "scan" and [x[-1] for x in hc] != [x[-1] for x in rc]:
        print(f"FAIL: {name}: CSV parameter column {rc}"); ok = False

    # rundown's values from its own store, in seconds.
    recs = [json.loads(l) for l in open(f"{name}.jsonl")]
    for rr in r["results"]:
        mine = [x for x in recs if x["phase"] == "measure" and x["status"] == "ok"
                and rr["command"] in (x["config"].get("command"), x["info"]["command"])]
        walls = [x["metrics"]["wall_ms"] / 1000 for x in mine]
        want = dict(mean=st.mean(walls), median=st.median(walls), min=min(walls), max=max(walls),
                    stddev=st.stdev(walls) if len(walls) > 1 else None,
                    user=st.mean(x["metrics"]["user_ms"] for x in mine) / 1000,
                    system=st.mean(x["metrics"]["sys_ms"] for x in mine) / 1000)
        for k, v in want.items():
            if (v is None) != (rr[k] is None) or (v is not None and abs(rr[k] - v) > 1e-12):
                print(f"FAIL: {name}: {rr['command']}: {k} {rr[k]} != {v} from the store"); ok = False
        if sorted(rr["times"]) != sorted(walls) or rr["exit_codes"] != [x["exit_code"] for x in mine]:
            print(f"FAIL: {name}: {rr['command']}: times or exit codes not the store's"); ok = False
    rcsv = {x[0]: x for x in rc[1:]}
    for rr in r["results"]:
        row = rcsv[rr["command"]]
        if abs(float(row[1]) - rr["mean"]) > 0 or float(row[2]) != (rr["stddev"] or 0):
            print(f"FAIL: {name}: CSV row {row} against the JSON"); ok = False
raise SystemExit(0 if ok else 1)
PY

# rundown's importer of hyperfine reads the export back: a run per time.
"$RC" import -q -t hyperfine -w scan -o back.jsonl r-scan.json 2>err.txt || { fail "import back"; cat err.txt; }
[ "$(wc -l <back.jsonl)" -eq "$(python3 -c 'import json;print(sum(len(r["times"]) for r in json.load(open("r-scan.json"))["results"]))')" ] ||
    fail "import back: not one run per time"

# A failed export leaves no file behind and is an error: the path is a folder.
mkdir taken
"$RC" run -q -r 1 -o f.jsonl --export-json taken 'sleep 0.001' 2>err.txt
rc=$?
[ $rc -eq 3 ] || { fail "export into a folder: exit $rc, not 3"; cat err.txt; }
[ -z "$(ls taken)" ] && ! ls taken.tmp.* >/dev/null 2>&1 || fail "export into a folder: left files"

[ $fails -eq 0 ] && echo "hyperfine_export: ok"
exit $((fails > 0))
