#!/bin/sh
# bench/crosscheck-study.sh - headline figures of the study measured
# independently of rundown, for docs/workloads.md ("Cross-checks"):
#
#   cold start   hyperfine -N --warmup 3 --runs RUNS, one command a runtime
#   http-hello   wrk -t1 -c50 -d5s --latency by hand against each runtime's
#                sequential server, pinned as the suite pins them (server on
#                CPU 1, wrk on CPU 0), REPS times a runtime
#
# Run it on a quiet machine (rundown-collect check passes), never beside a
# build or a test: its figures are written down. Prints one table a
# workload, then each figure beside the study's mean from ANALYSIS (the
# same config: cold-start's runtime, http-hello's sequential server) with
# their difference and whether they agree within 10 % (issue 32's bar).
#
#   bench/crosscheck-study.sh [OUT_DIR]      (RUNS=20 REPS=3 PORT=18431
#                                             ANALYSIS=out/analysis.json)
set -eu
cd "$(dirname "$0")/.."
out=${1:-build/crosscheck}
runs=${RUNS:-20}
analysis=${ANALYSIS:-out/analysis.json}
reps=${REPS:-3}
port=${PORT:-18431}
root=data/workloads
bin=$root/node_modules/.bin
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/figures.txt" 

runtime_cmd() { # the suite's command of a runtime (data/suites/js-runtimes.json)
    case $1 in
    node) echo "$bin/node" ;;
    deno) echo "$bin/deno run -A --unstable-net" ;;
    bun) echo "$bin/bun" ;;
    esac
}

echo "cold start: hyperfine -N --warmup 3 --runs $runs (ms, mean ± sd)"
for rt in node deno bun; do
    (cd "$root" && hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/cold-$rt.json" \
        "$(runtime_cmd "$rt" | sed "s#$root/##") cold-start.mjs" >/dev/null)
    python3 - "$out/cold-$rt.json" "$rt" "$out/figures.txt" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"  {sys.argv[2]:5s} {r['mean'] * 1e3:8.2f} ± {r['stddev'] * 1e3:.2f}")
with open(sys.argv[3], "a") as f:
    f.write(f"cold-start {sys.argv[2]} {r['mean'] * 1e3!r}\n")
EOF
done

echo "http-hello sequential: wrk -t1 -c50 -d5s, server on CPU 1, wrk on CPU 0 (req/s)"
for rt in node deno bun; do
    cmd=$(runtime_cmd "$rt" | sed "s#$root/##")
    (cd "$root" && exec taskset -c 1 $cmd http-hello.mjs --mechanism sequential --workers 1 \
        --port "$port" --host 127.0.0.1 >"$out/server-$rt.log" 2>&1) &
    server=$!
    i=0
    until grep -q 'rundown:info ready' "$out/server-$rt.log" 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt 200 ]; then
            echo "  $rt: the server did not become ready in 20 s" >&2
            kill "$server" 2>/dev/null || true
            exit 1
        fi
        sleep 0.1
    done
    taskset -c 0 wrk -t1 -c50 -d2s "http://127.0.0.1:$port/" >/dev/null # warm-up, as warmup_load 2
    vals=""
    r=0
    while [ $r -lt "$reps" ]; do
        v=$(taskset -c 0 wrk -t1 -c50 -d5s --latency "http://127.0.0.1:$port/" |
            awk '/^Requests\/sec:/ {print $2}')
        vals="$vals $v"
        r=$((r + 1))
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    echo "$rt$vals" | awk '{s = 0; for (i = 2; i <= NF; i++) s += $i;
        printf "  %-5s %10.0f  (runs:", $1, s / (NF - 1);
        for (i = 2; i <= NF; i++) printf " %.0f", $i; print ")"}'
    echo "$rt$vals" | awk '{s = 0; for (i = 2; i <= NF; i++) s += $i;
        printf "http-hello %s %.6g\n", $1, s / (NF - 1)}' >>"$out/figures.txt"
done

if [ -f "$analysis" ]; then
    echo "beside the study ($analysis): by hand against the study's mean"
    python3 - "$analysis" "$out/figures.txt" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
metric = {"cold-start": "wall_ms", "http-hello": "rps"}
want = {"cold-start": {}, "http-hello": {"mechanism": "sequential", "workers": "1"}}
wls = {w["name"]: w for w in a["workloads"]}
for line in open(sys.argv[2]):
    wl, rt, v = line.split()
    labels = dict(want[wl], runtime=rt)
    study = None
    for c in wls.get(wl, {}).get("configs", []):
        if all(c["labels"].get(k) == x for k, x in labels.items()):
            study = c["metrics"].get(metric[wl], {}).get("mean")
    if study is None:
        print(f"  {wl:10s} {rt:5s} {float(v):10.6g}  (no study figure)")
        continue
    d = float(v) / study - 1
    ok = "within 10 %" if abs(d) <= 0.10 else "NOT within 10 %"
    print(f"  {wl:10s} {rt:5s} {float(v):10.6g}  study {study:10.6g}  {d:+.1%}  {ok}")
EOF
fi
