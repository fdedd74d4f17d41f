#!/usr/bin/env bash
# trust.sh BUILD ROOT - data is never code. Workload names and labels that try
# shell substitution, command chaining, path traversal, spreadsheet formulas
# and HTML/script injection flow through import -> analyze -> render, and:
#   - nothing is executed: no marker file appears anywhere;
#   - nothing is written outside the output folder (and the store);
#   - the xlsx holds no formula cell made from data, and the formula-like
#     strings are there as text;
#   - the HTML has them escaped;
#   - in the gnuplot script every string from data is inside single quotes
#     (gnuplot runs `...` anywhere else, even inside double quotes).
. "$(dirname "$0")/require.bash" gnuplot python3 unzip wrk
set -u
build=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
PATH="$build/collect:$build/analyze:$build/render:$PATH"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-trust.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/work" "$T/work/sub"
cd "$T/work/sub" || exit 2
M=$T/PWNED   # every attempt names a marker under $T

# Values that a shell, gnuplot, a spreadsheet or a browser would run.
vals=(
    "\$(touch $M-dollar)"
    "\`touch $M-backquote\`"
    ";touch $M-semicolon;"
    "|touch $M-pipe"
    "&& touch $M-and"
    "../../../../escape"
    "=cmd|' /C calc'!A0"
    "+1+cmd|' /C calc'!A0"
    "@SUM(1+1)*cmd|' /C calc'!A0"
    "-2+3"
    "<script>alert(1)</script>"
    "<img src=x onerror=alert(1)>"
    "'; system('touch $M-gp-system'); '"
    "\" . system(\"touch $M-gp-dq\") . \""
    "\`touch $M-gp-bq\`'\`touch $M-gp-bq2\`"
    "a'b\\\\'c d'"
    "{x}^_@{}"
)

# ../in.txt: sample $2 after a first line naming the copy ($1), which wrk's
# importer skips. The samples are imported again and again, and the same
# source twice is one run to the analysis (counted once): each import reads
# its own copy.
copy() { { printf 'trust copy %s\n' "$1"; cat "$ROOT/data/samples/$2"; } >../in.txt; }

i=0
for v in "${vals[@]}"; do
    i=$((i + 1))
    # the same value as a label value, for two configs (so tests and charts
    # are made), and as the name of a second label
    for s in wrk-default.txt wrk-local-default.txt wrk-local-latency.txt; do
        copy "$i a" "$s"
        rundown-collect import -w "http$i" -l "rt=$v" -l "k=a" -o ../store.jsonl ../in.txt 2>>../import.err ||
            fail "import of label '$v' rejected: $(tail -1 ../import.err)"
        copy "$i b" "$s"
        rundown-collect import -w "http$i" -l "rt=plain" -l "k=b" -o ../store.jsonl ../in.txt 2>>../import.err
    done
done
# Workload names that are paths or code: either refused or carried as text.
for w in "../../../../escape" "\$(touch $M-wl)" "<b>wl</b>" "=1+1"; do
    for s in wrk-default.txt wrk-local-default.txt; do
        copy "$w a" "$s"
        rundown-collect import -w "$w" -l rt=a -o ../store.jsonl ../in.txt 2>>../import.err
        copy "$w b" "$s"
        rundown-collect import -w "$w" -l rt=b -o ../store.jsonl ../in.txt 2>>../import.err
    done
done
rm -f ../in.txt
records=$(wc -l <../store.jsonl)
echo "trust: $records hostile records imported"

touch "$T/stamp"
sleep 0.01
rundown-analyze -o ../analysis.json ../store.jsonl 2>../analyze.err || { fail "analyze failed"; head -3 ../analyze.err; }
rundown-render -o ../out ../analysis.json 2>../render.err || { fail "render failed"; head -3 ../render.err; }

# 1. nothing ran
pwned=$(find "$T" "$ROOT" /tmp -maxdepth 6 -name 'PWNED*' 2>/dev/null)
[ -z "$pwned" ] || fail "something was executed: $pwned"

# 2. nothing written outside out/ (and the analysis file)
stray=$(find "$T" "$ROOT/tests" -newer "$T/stamp" -type f 2>/dev/null |
    grep -v "^$T/work/out/" | grep -v "^$T/work/analysis.json$" | grep -v "^$T/stamp$" |
    grep -v "^$T/work/[a-z]*\.err$")
[ -z "$stray" ] || fail "files written outside the output folder: $stray"
escape=$(find / -xdev -maxdepth 4 -name 'escape*' -newer "$T/stamp" 2>/dev/null | grep -v "^$T/work/out/")
[ -z "$escape" ] || fail "a path from data escaped: $escape"
names=$(cd ../out && find . | grep -E '\.\.|[$`;|<>&'"'"']' || true)
[ -z "$names" ] || fail "unsafe file names under out/: $names"

# 3. xlsx: no formula cells from data; the formula-like strings kept as text
f=$(unzip -p ../out/report.xlsx 'xl/worksheets/*.xml' | grep -o '<f>[^<]*</f>' | grep -ciE 'cmd|calc|SUM\(1\+1\)|\+1\+|2\+3' || true)
[ "$f" -eq 0 ] || fail "xlsx has $f formulas made from data"
total_f=$(unzip -p ../out/report.xlsx 'xl/worksheets/*.xml' | grep -o '<f>' | wc -l)
text=$(unzip -p ../out/report.xlsx xl/sharedStrings.xml | grep -o "=cmd|&apos;\|=cmd|'" | wc -l)
[ "$text" -gt 0 ] || fail "xlsx: '=cmd|...' is not in the shared strings as text"
echo "trust: xlsx: $total_f formula cells in all (none from data), '=cmd|...' kept as text $text times"

# 4. HTML escaped
h=../out/report.html
grep -q '<script>alert(1)</script>' "$h" && fail "html: raw <script> from data"
grep -q '<img src=x onerror' "$h" && fail "html: raw <img> from data"
grep -q '<b>wl</b>' "$h" && fail "html: raw <b> from a workload name"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$h" || fail "html: the script label is not there escaped"
grep -q '&lt;b&gt;wl&lt;/b&gt;\|&lt;b>wl' "$h" || echo "trust: note: workload '<b>wl</b>' not in the html (refused at import?)"

# 5. gnuplot: outside single-quoted strings no backquote and no data
python3 - ../out/charts/*.gp <<'PY' || fails=$((fails + 1))
import re, sys
bad = 0
for path in sys.argv[1:]:
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        if line.lstrip().startswith("#"):
            continue
        # drop single-quoted strings ('' is a quote inside one)
        rest = re.sub(r"'(?:[^']|'')*'", "''", line)
        if "`" in rest or "touch" in rest or "system" in rest.replace("set terminal", ""):
            print("FAIL: %s:%d: data outside single quotes: %s" % (path, n, line.strip()[:160]))
            bad += 1
if bad:
    sys.exit(1)
PY
# the gnuplot script runs again as a user would re-run it, from charts/
(cd ../out/charts && gnuplot *.gp >/dev/null 2>&1)
pwned=$(find "$T" "$ROOT" /tmp -maxdepth 6 -name 'PWNED*' 2>/dev/null)
[ -z "$pwned" ] || fail "re-running the gnuplot script executed data: $pwned"

# 6. Markdown: table cells keep their pipes escaped (one row stays one row)
rows=$(grep -c '^| ' ../out/report.md)
echo "trust: report.md: $rows table rows"

[ $fails -eq 0 ] && echo "trust: ok"
[ $fails -eq 0 ]
