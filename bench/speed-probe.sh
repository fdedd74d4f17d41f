#!/bin/bash
# speed-probe.sh - does the CPU speed probe (collect/speedprobe.h) see what
# slows a CPU-bound run, and what does --min-speed cost? The figures of
# docs/methods.md §6d.
#
#   bench/speed-probe.sh [BUILD] [RUNS]     (default build, 120)
#
# Run it with nothing else on the machine: `rundown-collect check
# --min-speed 0` must pass (others' CPU and steal quiet; the speed is what
# is measured, so it is not a condition). A fixed CPU-bound command (awk
# summing squares, about 0.4 s) runs RUNS times with --contention warn:
# nothing waits, every run is judged and stored with machine_speed_pct.
# Prints the share of runs the probe flags at each candidate --min-speed,
# the CV of the run times kept at each, and the rank correlation of the
# speed reading with the run time (negative: slower CPUs, longer runs).
set -eu
. "$(dirname "$0")/lib.sh"
bench_start 120 "$@"
"$C" check --min-speed 0 --window 5 ||
    { echo "the machine is not quiet: the figures would be wrong" >&2; exit 1; }
work="awk 'BEGIN { for (i = 0; i < 1e7; i++) s += i * i; print s }'"
# The guard redoes contended runs up to the cap; --min-speed 0 keeps every
# run as it came, so the share flagged is read from the readings below.
"$C" run --contention warn --min-speed 0 -w 3 -r "$runs" -q -o "$tmp/runs.jsonl" "$work" \
    >/dev/null 2>&1
python3 - "$tmp/runs.jsonl" <<'PY'
import json, statistics as st, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
runs = [(r["metrics"]["wall_ms"], r["metrics"].get("machine_speed_pct"),
         r["metrics"].get("machine_others_cpu_pct", 0) + r["metrics"].get("machine_steal_pct", 0))
        for r in runs if r.get("phase") == "measure" and r["status"] == "ok"]
runs = [x for x in runs if x[1] is not None and x[2] <= 25]
def cv(xs):
    return st.stdev(xs) / st.mean(xs) * 100 if len(xs) > 1 else float("nan")
def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    for k, i in enumerate(order):
        r[i] = k + 1.0
    return r
wall = [w for w, _, _ in runs]
speed = [s for _, s, _ in runs]
rho = st.correlation(ranks(speed), ranks(wall)) if len(runs) > 2 else float("nan")
print(f"runs {len(runs)} (others + steal <= 25 %); wall {st.mean(wall):.1f} ms mean, "
      f"CV {cv(wall):.2f} %; speed reading min {min(speed):.0f} %, median "
      f"{st.median(speed):.0f} %; Spearman rho(speed, wall) = {rho:.2f}")
print(f"{'--min-speed':>11} {'flagged':>8} {'kept CV':>8} {'kept mean ms':>13}")
for t in (0, 70, 80, 85, 90, 95, 96, 97):
    kept = [w for w, s, _ in runs if s >= t]
    print(f"{t:>10} % {100 * (1 - len(kept) / len(runs)):>7.1f} % {cv(kept):>7.2f} % "
          f"{st.mean(kept):>13.1f}")
PY
