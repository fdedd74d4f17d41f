#!/usr/bin/env bash
# render_many.sh BUILD ROOT - a study of more workloads than a workbook
# gives sheets to still renders, and says where the rest is.
#
# 1,003 workloads of 2 configs and two of 201 configs, named to sort first
# and last:
#   - render exits 0 (10^4 workloads failed with "xlsx: cannot add a sheet"
#     once the fixed table of 4,096 sheet names was full);
#   - report.xlsx has the Recommendations sheet, 1,000 workload sheets
#     (RD_XLSX_MAX_WORKLOAD_SHEETS) and the fixed ones, and the
#     Recommendations sheet has a row for every workload and the sentence
#     counting the 5 without a sheet;
#   - report.md sends a reader of the wide workload that has no sheet to
#     the analysis for its 201 configs, and of the one with a sheet to
#     report.xlsx.
. "$(dirname "$0")/require.bash" python3 unzip
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
if ! "$build/render/rundown-render" -o out --formats md,xlsx analysis.json 2>render.err; then
    fail "render exited non-zero: $(head -2 render.err)"
fi

sheets=$(unzip -p out/report.xlsx xl/workbook.xml 2>/dev/null | grep -o '<sheet ' | wc -l)
# Recommendations, 1,000 workloads, Raw runs, Environment, Methods.
[ "$sheets" -eq 1004 ] || fail "report.xlsx has $sheets sheets, expected 1004"
rows=$(unzip -p out/report.xlsx xl/worksheets/sheet1.xml 2>/dev/null | grep -o '<row ' | wc -l)
# A header, 1,005 workloads, the sentence.
[ "$rows" -eq 1007 ] || fail "the Recommendations sheet has $rows rows, expected 1007"
unzip -p out/report.xlsx xl/sharedStrings.xml 2>/dev/null |
    grep -q 'The first 1000 of these 1005 workloads have a sheet of their own; the other 5 are' ||
    fail "the Recommendations sheet does not say which workloads have no sheet"

n=$(grep -c 'Showing 200 of 201 configs ([^)]*); the analysis (JSON) lists every one\.' out/report.md)
[ "$n" -eq 1 ] || fail "report.md sends $n readers to the analysis, expected 1 (zz-wide)"
n=$(grep -c 'Showing 200 of 201 configs ([^)]*); report.xlsx lists every one\.' out/report.md)
[ "$n" -eq 1 ] || fail "report.md sends $n readers to report.xlsx, expected 1 (a-wide)"

[ "$fails" -eq 0 ] && echo "render_many: 1,005 workloads: 1,000 sheets, a note for 5, report.md points past the workbook"
exit $((fails > 0))
