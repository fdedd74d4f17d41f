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
# nothing waits, every run is judged and stored with machine_speed_pct
# (the multiply-add chain) and machine_speed_store_pct (the store-reload
# chain). Prints, for each series and for the guard's verdict on both
# (the lower of the two), the share of runs the probe flags at each
# candidate --min-speed, the CV of the run times kept at each, and the
# rank correlation of the reading with the run time (negative: slower
# CPUs, longer runs). The store series' threshold is calibrated with it on
# a quiet machine: busy-machine figures are not a calibration.
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
         r["metrics"].get("machine_speed_store_pct"),
         r["metrics"].get("machine_others_cpu_pct", 0) + r["metrics"].get("machine_steal_pct", 0))
        for r in runs if r.get("phase") == "measure" and r["status"] == "ok"]
runs = [x for x in runs if x[1] is not None and x[3] <= 25]
def cv(xs):
    return st.stdev(xs) / st.mean(xs) * 100 if len(xs) > 1 else float("nan")
def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    for k, i in enumerate(order):
        r[i] = k + 1.0
    return r
wall = [w for w, *_ in runs]
print(f"runs {len(runs)} (others + steal <= 25 %); wall {st.mean(wall):.1f} ms mean, "
      f"CV {cv(wall):.2f} %")
# Each series of the probe (the multiply-add chain, machine_speed_pct; the
# store-reload chain, machine_speed_store_pct, absent before 2026-12-05)
# and the guard's verdict on both: a run is slow when either series is.
series = {"multiply-add": [s for _, s, _, _ in runs],
          "store-reload": [t for _, _, t, _ in runs],
          "either (min)": [min(s, t) if t is not None else s for _, s, t, _ in runs]}
for name, pct in series.items():
    keep = [(w, p) for w, p in zip(wall, pct) if p is not None]
    if len(keep) < 3:
        print(f"{name}: not read")
        continue
    w, p = [x for x, _ in keep], [y for _, y in keep]
    rho = st.correlation(ranks(p), ranks(w))
    print(f"{name}: reading min {min(p):.0f} %, median {st.median(p):.0f} %; "
          f"Spearman rho(reading, wall) = {rho:.2f}")
    print(f"  {'--min-speed':>11} {'flagged':>8} {'kept CV':>8} {'kept mean ms':>13}")
    for t in (0, 70, 80, 85, 90, 95, 96, 97):
        kept = [x for x, y in keep if y >= t]
        print(f"  {t:>10} % {100 * (1 - len(kept) / len(keep)):>7.1f} % {cv(kept):>7.2f} % "
              f"{st.mean(kept) if kept else float('nan'):>13.1f}")
PY
