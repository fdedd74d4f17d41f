#!/bin/sh
# bench/render.sh - times rundown-render (md + html + xlsx + every chart) on
# the analysis of the shipped dataset (the `make report` inputs,
# data/raw/*.jsonl), on a synthetic analysis of 100 workloads x 10 configs
# (the 10k store of bench/analyze.sh) and on synthetic analyses of 1 workload
# x 100, 300 and 1000 configs x 5 runs, times each format alone on the first
# of these, counts the gnuplot processes each render starts
# (a counting gnuplot shim first on PATH), and prints the table and the
# targets of issue 9 / DESIGN.md section 7.
#
#   bench/render.sh
#   RUNS=5 CONFIGS="100 300 1000" bench/render.sh
#
# Environment: BUILD (default build-perf), PYTHON (default /usr/bin/python3),
# ANALYZE / RENDER (binaries to use instead of building them), STRICT=1 to
# exit 1 when a target is missed. Everything generated stays under
# $BUILD/bench-data and $BUILD/bench-out.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-perf}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PY=${PYTHON:-/usr/bin/python3}
RUNS=${RUNS:-5}
CONFIGS=${CONFIGS:-100 300 1000}
DATA=$BUILD/bench-data
OUT=$BUILD/bench-out
mkdir -p "$DATA" "$OUT"

GNUPLOT=$(command -v gnuplot) || {
    echo "bench/render.sh: gnuplot not found: apt-get install gnuplot-nox" >&2
    exit 3
}
if [ -z "${ANALYZE:-}" ] || [ -z "${RENDER:-}" ]; then
    [ -f "$BUILD/CMakeCache.txt" ] ||
        cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD" --target rundown-analyze rundown-render -j "$(nproc)" >/dev/null
fi
bin() {
    if [ -x "$BUILD/$1" ]; then echo "$BUILD/$1"; else echo "$BUILD/$2/$1"; fi
}
ANALYZE=${ANALYZE:-$(bin rundown-analyze analyze)}
RENDER=${RENDER:-$(bin rundown-render render)}

# A gnuplot that counts its starts, then runs the real one.
SHIM=$BUILD/bench/shim
mkdir -p "$SHIM"
cat >"$SHIM/gnuplot" <<EOF
#!/bin/sh
echo started >>"\$RUNDOWN_BENCH_GNUPLOT_LOG"
exec '$GNUPLOT' "\$@"
EOF
chmod +x "$SHIM/gnuplot"

# The inputs: label|analysis file.
INPUTS=$OUT/render-inputs.txt
: >"$INPUTS"
set -- "$ROOT"/data/raw/*.jsonl
if [ -f "$1" ]; then
    "$ANALYZE" -o "$OUT/shipped-analysis.json" "$@"
    echo "shipped dataset|$OUT/shipped-analysis.json" >>"$INPUTS"
else
    echo "bench/render.sh: no data/raw/*.jsonl yet: the shipped dataset is left out" >&2
fi
# 100 workloads x 10 configs x 10 runs: many charts.
f=$DATA/store-10k.jsonl
[ -s "$f" ] || "$PY" "$ROOT/bench/gen_store.py" --runs 10 --seed 1 -o "$f"
"$ANALYZE" -o "$OUT/analysis-w100.json" "$f"
echo "synthetic 100 workloads|$OUT/analysis-w100.json" >>"$INPUTS"
for c in $CONFIGS; do
    f=$DATA/store-c$c.jsonl
    [ -s "$f" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads 1 --configs "$c" --runs 5 \
        --seed 1 -o "$f"
    "$ANALYZE" -o "$OUT/analysis-c$c.json" "$f"
    echo "synthetic $c configs|$OUT/analysis-c$c.json" >>"$INPUTS"
done

# One untimed render of each with the counting shim: gnuplot starts, size.
COUNTS=$OUT/render-counts.json
"$PY" - "$INPUTS" "$RENDER" "$SHIM" "$OUT" "$COUNTS" <<'EOF'
import json, os, shutil, subprocess, sys
inputs, render, shim, out, counts_path = sys.argv[1:]
counts = {}
for line in open(inputs):
    label, path = line.rstrip("\n").split("|", 1)
    a = json.load(open(path))
    configs = sum(len(w["configs"]) for w in a["workloads"])
    pairs = sum(len((w.get("tests") or {}).get("pairs") or []) for w in a["workloads"])
    d = os.path.join(out, "render-count")
    shutil.rmtree(d, ignore_errors=True)
    log = os.path.join(out, "gnuplot-starts.log")
    open(log, "w").close()
    env = dict(os.environ, PATH=shim + ":" + os.environ["PATH"],
               RUNDOWN_BENCH_GNUPLOT_LOG=log)
    subprocess.run([render, "-o", d, path], env=env, check=True, stdout=subprocess.DEVNULL)
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
    charts = len([f for f in os.listdir(os.path.join(d, "charts"))
                  if f.endswith((".svg", ".png"))]) if os.path.isdir(os.path.join(d, "charts")) else 0
    counts[label] = {"workloads": len(a["workloads"]), "configs": configs, "pairs": pairs, "out_bytes": size, "images": charts,
                     "gnuplot_execs": len(open(log).read().splitlines())}
    print("  %-28s %d configs, %d pairs, %d images, %.1f MiB, %d gnuplot start(s)"
          % (label, configs, pairs, charts, size / 1048576, counts[label]["gnuplot_execs"]),
          file=sys.stderr)
json.dump(counts, open(counts_path, "w"), indent=1)
EOF

# The timed renders, interleaved; each into a fresh folder.
SPEC=$OUT/render-spec.json
"$PY" - "$INPUTS" "$RENDER" "$OUT" "$RUNS" >"$SPEC" <<'EOF'
import json, os, sys
inputs, render, out, runs = sys.argv[1:]
cmds = []
for i, line in enumerate(open(inputs)):
    label, path = line.rstrip("\n").split("|", 1)
    d = os.path.join(out, "render-%d" % i)
    cmds.append({"label": label, "reps": int(runs), "setup": ["rm", "-rf", d],
                 "argv": [render, "-o", d, path]})
# Where the time goes: each format alone, on the first input.
label, path = open(inputs).readline().rstrip("\n").split("|", 1)
for fmt in ("md", "html", "xlsx", "charts"):
    d = os.path.join(out, "render-" + fmt)
    cmds.append({"label": "%s, %s only" % (label, fmt), "reps": int(runs),
                 "setup": ["rm", "-rf", d], "argv": [render, "--formats", fmt, "-o", d, path]})
print(json.dumps({"rounds": int(runs), "commands": cmds}))
EOF
echo "timing (renders interleaved, x$RUNS each) ..." >&2
"$PY" "$ROOT/bench/measure.py" "$SPEC" "$OUT/render-results.json"
"$PY" "$ROOT/bench/tables.py" render "$OUT/render-results.json" "$COUNTS"
