#!/usr/bin/python3
"""Writes a deterministic synthetic run store (rundown.run/1, one JSON object
per line) for the analyze and render benchmarks.

  gen_store.py [--workloads W] [--configs C] [--runs R] [--seed S] -o FILE

W x C x R measured runs, in the runner's default interleaved order (per
workload: run 1 of every config, then run 2, ...). Config k of a workload
has the single label runtime=r<k>. Each run carries four metrics drawn from
lognormal distributions whose medians depend on the workload and the config
(some configs share a median, so the tests see real ties as well as real
differences):

  wall_ms          lognormal, sigma 0.05, median 20..2000 ms
  max_rss_kib      integer, lognormal, sigma 0.02, median 30..300 MiB
  rps              lognormal, sigma 0.08, median 1000..50000 /s
  latency_p99_ms   lognormal, sigma 0.15, median 1..50 ms

Only Python's 'random' module is used (Mersenne Twister, integer seed, whose
stream CPython keeps stable across versions) and '%.3f'-style formatting, so
a seed writes the same bytes on any CPython 3 (checked with 3.11.2 and
3.11.7; bench/analyze.sh warns when the 10k store's sha256 differs).
"""
import argparse
import math
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", type=int, default=100)
    ap.add_argument("--configs", type=int, default=10)
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True, help="output file, - for stdout")
    a = ap.parse_args()
    if min(a.workloads, a.configs, a.runs) < 1:
        ap.error("--workloads, --configs and --runs must be at least 1")

    rng = random.Random(a.seed)
    # Per workload and config: the log-medians of the four metrics. Configs
    # come in pairs sharing the wall_ms median (k and k^1), so about half of
    # the pairs differ and half are ties.
    params = []
    for w in range(a.workloads):
        base_wall = math.log(20.0) + rng.random() * math.log(100.0)
        base_rss = math.log(30 * 1024) + rng.random() * math.log(10.0)
        base_rps = math.log(1000.0) + rng.random() * math.log(50.0)
        base_lat = math.log(1.0) + rng.random() * math.log(50.0)
        row = []
        for c in range(a.configs):
            # The steps repeat after 1000 configs (the same bytes as
            # before for fewer), so 10^5 configs stay finite numbers.
            step = (c // 2 % 500) * 0.03
            row.append((base_wall + step, base_rss + (c % 3) * 0.1,
                        base_rps - step, base_lat + (c % 4) * 0.05))
        params.append(row)

    g = rng.gauss
    out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="ascii")
    buf = []
    for w in range(a.workloads):
        wname = "w%03d" % w
        head = ['{"schema":"rundown.run/1","workload":"%s","config":{"runtime":"r%d"},"run":'
                % (wname, c) for c in range(a.configs)]
        row = params[w]
        for run in range(1, a.runs + 1):
            for c in range(a.configs):
                mw, mr, mp, ml = row[c]
                buf.append('%s%d,"phase":"measure","tool":"rundown","status":"ok",'
                           '"metrics":{"wall_ms":%.3f,"max_rss_kib":%d,"rps":%.2f,'
                           '"latency_p99_ms":%.3f}}\n'
                           % (head[c], run,
                              math.exp(mw + 0.05 * g(0.0, 1.0)),
                              int(math.exp(mr + 0.02 * g(0.0, 1.0))),
                              math.exp(mp + 0.08 * g(0.0, 1.0)),
                              math.exp(ml + 0.15 * g(0.0, 1.0))))
            if len(buf) >= 65536:
                out.write("".join(buf))
                buf.clear()
    out.write("".join(buf))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
