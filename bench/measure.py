#!/usr/bin/python3
"""Timing harness for the rundown benchmarks (used by bench/analyze.sh and
bench/render.sh; standard library only).

  measure.py SPEC.json RESULTS.json

SPEC is {"rounds": R, "commands": [{"label": L, "argv": [...], "reps": N,
"stdout": FILE|null, "setup": [...]|null}, ...]}. The commands run
interleaved, round by round (round i runs every command that still has
repetitions left), so a change in the machine's load hits all of them alike.
'setup' (optional) is an argv run untimed before each repetition.

Each repetition runs under `/usr/bin/time -f %M` (the peak RSS in KiB; a
child forked straight from Python would inherit Python's high-water mark
across exec) and is timed from fork to wait with time.perf_counter() (the
extra fork+exec of /usr/bin/time costs about a millisecond). A command that
exits non-zero stops the benchmark with its stderr.

RESULTS gets {"loadavg_start": ..., "loadavg_end": ..., "results": {label:
{"times": [...], "rss_kib": [...], "cpu": [...], "median_s": ...,
"median_cpu_s": ..., "rss_kib_max": ...}}}; cpu is user + sys seconds
(of the command and its children, from /usr/bin/time %U %S), steadier than
wall time when the machine is shared.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TIME = os.environ.get("TIME_CMD", "/usr/bin/time")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run_once(argv, stdout):
    """Runs argv; returns (wall seconds, peak RSS in KiB, user+sys CPU seconds)."""
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as rss:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-f", "%M %U %S", "-o", rss.name] + argv,
                             stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        p.wait()
        dt = time.perf_counter() - t0
        if stdout:
            out.close()
        if p.returncode != 0:
            err.seek(0)
            sys.stderr.write("measure: '%s' exited with %d:\n%s\n"
                             % (" ".join(argv), p.returncode,
                                err.read().decode(errors="replace")[-2000:]))
            sys.exit(1)
        f = rss.read().split()[-3:]
    return dt, int(f[0]), float(f[1]) + float(f[2])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: measure.py SPEC.json RESULTS.json")
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    cmds = spec["commands"]
    rounds = max(c.get("reps", spec.get("rounds", 5)) for c in cmds)
    res = {c["label"]: {"argv": c["argv"], "times": [], "rss_kib": [], "cpu": []} for c in cmds}
    la0 = loadavg()
    for i in range(rounds):
        for c in cmds:
            if i >= c.get("reps", spec.get("rounds", 5)):
                continue
            if c.get("setup"):
                subprocess.run(c["setup"], check=True, stdout=subprocess.DEVNULL)
            dt, rss, cpu = run_once(c["argv"], c.get("stdout"))
            r = res[c["label"]]
            r["times"].append(dt)
            r["rss_kib"].append(rss)
            r["cpu"].append(cpu)
            print("  %-28s round %d/%d: %8.3f s %8.2f s cpu %9d KiB   (load %s)"
                  % (c["label"], i + 1, c.get("reps", rounds), dt, cpu, rss, loadavg()),
                  file=sys.stderr, flush=True)
    for r in res.values():
        r["median_s"] = statistics.median(r["times"])
        r["median_cpu_s"] = statistics.median(r["cpu"])
        r["rss_kib_max"] = max(r["rss_kib"])
    with open(sys.argv[2], "w") as f:
        json.dump({"loadavg_start": la0, "loadavg_end": loadavg(), "nproc": os.cpu_count(),
                   "results": res}, f, indent=1)


if __name__ == "__main__":
    main()
