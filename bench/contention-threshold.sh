#!/bin/bash
# contention-threshold.sh - the figures the default --contention-threshold
# is chosen from (docs/methods.md, "Foreign load"): machine_others_cpu_pct
# of short runs on a quiet machine, and of runs beside a CPU hog on the
# other CPU. The default must flag at most 1 % of the quiet runs and at
# least 99 % of the runs beside the hog.
#
#   bench/contention-threshold.sh [BUILD] [RUNS]     (default build, 200)
#
# Run it on a quiet machine (`rundown-collect check` exits 0). Prints the
# percentiles of both distributions and the share each candidate threshold
# flags. The hog is bounded by timeout(1) and killed by its pid.
set -eu
. "$(dirname "$0")/lib.sh"
bench_start 200 "$@"
bench_quiet "the machine is not quiet: the quiet figures would be wrong"
for cmd in 'sleep 0.05' 'sleep 0.5' "sh -c 'i=0; while [ \$i -lt 200000 ]; do i=\$((i+1)); done'"; do
    "$C" run --contention warn -r "$runs" -q -o "$tmp/quiet.jsonl" "$cmd" 2>/dev/null
    timeout 3600 sh -c 'while :; do :; done' &
    hog=$!
    sleep 1
    "$C" run --contention warn -r "$runs" -q -o "$tmp/hog.jsonl" "$cmd" 2>/dev/null
    bench_stop_hog
done
python3 - "$tmp/quiet.jsonl" "$tmp/hog.jsonl" <<'PY'
import json, sys
def others(path):
    xs = []
    for line in open(path):
        r = json.loads(line)
        v = r["metrics"].get("machine_others_cpu_pct")
        if r.get("phase") == "measure" and v is not None:
            xs.append(v)
    return sorted(xs)
def pct(xs, p):
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]
q, h = others(sys.argv[1]), others(sys.argv[2])
for name, xs in (("quiet", q), ("beside a hog", h)):
    print(f"{name:13} n={len(xs):4}  p1={pct(xs,1):6.1f}  p50={pct(xs,50):6.1f}  "
          f"p99={pct(xs,99):6.1f}  max={xs[-1]:6.1f}  (% of one CPU)")
for t in (10, 15, 20, 25, 30, 40, 50):
    fq = sum(x > t for x in q) / len(q) * 100
    fh = sum(x > t for x in h) / len(h) * 100
    ok = "ok" if fq <= 1 and fh >= 99 else "--"
    print(f"threshold {t:3} %: flags {fq:5.1f} % of quiet runs, {fh:5.1f} % beside the hog  {ok}")
PY
