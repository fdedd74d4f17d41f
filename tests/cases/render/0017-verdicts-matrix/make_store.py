#!/usr/bin/env python3
"""Writes store.jsonl (and logs/) for golden case 0015-verdicts-matrix.

Two workloads, numbers chosen by hand so the verdicts are plain:
  heavy   21 configs (3 runtimes x 7 mechanism/workers), wall_ms; bun /
          worker / workers=4 is best at 100 ms (sd 0.16), bun / process /
          workers=4 is 101 ms (within 5 %) and uses less memory (30 MiB
          against 40 MiB: the tie-breaker), every other config is at
          least 24 % slower; 5 runs each.
  compat  3 runtimes x 2 checks (compat_left_ok, compat_right_ok) and
          compat_ok_count: deno fails "right" in all 3 runs (its reason in
          the run's info), node fails it in 1 of 3 (its reason only in the
          run's stdout log).
Run: python3 make_store.py (writes next to itself; the output is stable).
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
runs = []

def run(workload, config, n, metrics, info=None, source=None):
    r = {"schema": "rundown.run/1", "suite": "t", "workload": workload,
         "config": config, "run": n, "phase": "measure", "tool": "rundown",
         "status": "ok", "exit_code": 0, "env": "env-t", "metrics": metrics,
         "info": info or {}}
    if source:
        r["source"] = source
    runs.append(r)

offsets = [-0.2, -0.1, 0, 0.1, 0.2]   # sd = sqrt(0.1/4) = 0.158 around each mean
mechs = [("sequential", "1"), ("worker", "1"), ("worker", "2"), ("worker", "4"),
         ("process", "1"), ("process", "2"), ("process", "4")]
means = {"bun": [300, 180, 130, 100, 185, 140, 101],
         "deno": [320, 200, 150, 125, 210, 160, 130],
         "node": [350, 220, 170, 140, 230, 175, 150]}
for rt in ("bun", "deno", "node"):
    for (mech, workers), mean in zip(mechs, means[rt]):
        for i, off in enumerate(offsets):
            run("heavy", {"runtime": rt, "mechanism": mech, "workers": workers}, i + 1,
                {"wall_ms": mean + off,
                 "max_rss_kib": (30720 if mech == "process" else 40960) + 1024 * len(rt)},
                {"class": "cpu", "primary_metric": "wall_ms", "primary_better": "lower"})

for rt in ("bun", "deno", "node"):
    for i in range(3):
        right = 0 if rt == "deno" or (rt == "node" and i == 1) else 1
        info = {"class": "compat", "primary_metric": "compat_ok_count",
                "primary_better": "higher", "tie_breaker": "wall_ms"}
        source = None
        if rt == "deno":
            info["compat_right_error"] = "Cannot find module 'right'"
        if rt == "node" and i == 1:
            log = "logs/node-2.stdout.txt"
            with open(os.path.join(HERE, log), "w") as f:
                f.write("rundown:metric compat_right_ok=0\n"
                        "rundown:info compat_right_error=TypeError: right() is not a function\n")
            source = {"stdout_log": log}
        run("compat", {"runtime": rt}, i + 1,
            {"wall_ms": 300 + 10 * i, "compat_left_ok": 1, "compat_right_ok": right,
             "compat_ok_count": 1 + right}, info, source)

with open(os.path.join(HERE, "store.jsonl"), "w") as f:
    for r in runs:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
