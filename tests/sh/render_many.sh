#!/usr/bin/env bash
# render_many.sh BUILD ROOT - a study of more workloads than a report shows
# still renders, fast, and says where the rest is.
#
# 1,003 workloads of 2 configs and two of 201 configs, named to sort first
# (a-wide) and last (zz-wide):
#   - render exits 0 (10^4 workloads failed with "xlsx: cannot add a sheet"
#     once the fixed table of 4,096 sheet names was full, after 105 s and
#     8.7 GB);
#   - report.md and report.html show the first 200 workloads
#     (RD_REPORT_MAX_WORKLOADS) and their opening sentence says so and where
#     every one is; report.tex's tables and the charts are of those 200;
#   - report.xlsx has the Recommendations sheet, 1,000 workload sheets
#     (RD_XLSX_MAX_WORKLOAD_SHEETS) and the fixed ones, and its
#     Recommendations sheet has a row for every workload and a sentence
#     counting the 5 without a sheet;
#   - summary.csv and comparisons.csv hold every workload.
. "$(dirname "$0")/require.bash" python3 unzip gnuplot
set -u
build=$(cd "$1" && pwd) || exit 2
root=$(cd "$2" && pwd) || exit 2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-many.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2

python3 "$root/bench/gen_store.py" --workloads 1003 --configs 2 --runs 3 -o store.jsonl || exit 2
python3 - >>store.jsonl <<'EOF' || exit 2
import json
for workload in ("a-wide", "zz-wide"):
    for run in range(1, 4):
        for c in range(201):
            print(json.dumps({"schema": "rundown.run/1", "workload": workload,
                              "config": {"runtime": "r%d" % c}, "run": run,
                              "phase": "measure", "status": "ok",
                              "metrics": {"wall_ms": 100 + c + run * 0.5}}))
EOF
"$build/analyze/rundown-analyze" -o analysis.json store.jsonl 2>analyze.err || { cat analyze.err; exit 1; }
if ! "$build/render/rundown-render" -o out --formats md,html,xlsx,tex,csv,charts analysis.json \
    2>render.err; then
    fail "render exited non-zero: $(head -2 render.err)"
fi

# report.md and report.html: 200 workloads (a-wide, w0000 to w0198), said so.
grep -q 'This report shows the first 200 of 1,005 workloads; summary.csv, comparisons.csv, the Recommendations sheet of report.xlsx and the analysis (JSON) list every one\.' out/report.md ||
    fail "report.md does not say that it shows 200 of 1,005 workloads"
grep -q 'This report shows the first 200 of 1,005 workloads' out/report.html ||
    fail "report.html does not say that it shows 200 of 1,005 workloads"
grep '^## \(w[0-9]*\|a-wide\|zz-wide\)$' out/report.md | cut -c4- | sort >shown
n=$(wc -l <shown)
[ "$n" -eq 200 ] || fail "report.md has $n workload sections, expected 200"
grep -qx 'a-wide' shown || fail "report.md lacks a-wide, its first workload"
grep -q '(#zz-wide)' out/report.md && fail "report.md links zz-wide, which it does not show"
n=$(grep -c 'Showing 200 of 201 configs ([^)]*); report.xlsx lists every one\.' out/report.md)
[ "$n" -eq 1 ] || fail "report.md has $n 'Showing 200 of 201 configs' lines, expected 1 (a-wide)"
grep -q 'The first 200 of 1005 workloads; summary.csv lists every one\.' out/report.tex ||
    fail "report.tex's caption does not say that it lists 200 of 1005 workloads"
grep -q 'zz-wide' out/report.tex && fail "report.tex has zz-wide, past the first 200"
# Charts of exactly the workloads shown (gen_store's have means and runs).
(cd out/charts && ls ./*.svg) | sed -E 's|^\./||; s/-(means|runs)\.svg$//' | sort -u >charted
cmp -s shown charted || fail "the charts are not of the 200 workloads shown: $(diff shown charted | head -3)"

# report.xlsx: 1,000 workload sheets and a row for every workload.
sheets=$(unzip -p out/report.xlsx xl/workbook.xml 2>/dev/null | grep -o '<sheet ' | wc -l)
# Recommendations, 1,000 workloads, Raw runs, Environment, Methods.
[ "$sheets" -eq 1004 ] || fail "report.xlsx has $sheets sheets, expected 1004"
rows=$(unzip -p out/report.xlsx xl/worksheets/sheet1.xml 2>/dev/null | grep -o '<row ' | wc -l)
# A header, 1,005 workloads, the sentence.
[ "$rows" -eq 1007 ] || fail "the Recommendations sheet has $rows rows, expected 1007"
unzip -p out/report.xlsx xl/sharedStrings.xml 2>/dev/null |
    grep -q 'The first 1000 of these 1005 workloads have a sheet of their own; the other 5 are in this table, in comparisons.csv and summary.csv and in the analysis (JSON)\.' ||
    fail "the Recommendations sheet does not say which workloads have no sheet"

# The CSVs: every workload.
for f in summary comparisons; do
    n=$(cut -d, -f1 "out/$f.csv" | sed 1d | sort -u | wc -l)
    [ "$n" -eq 1005 ] || fail "$f.csv has $n workloads, expected 1005"
done

[ "$fails" -eq 0 ] && echo "render_many: 1,005 workloads: 200 in report.md/html/tex and the charts, 1,000 sheets, every one in the CSVs"
exit $((fails > 0))
