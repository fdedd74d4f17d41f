#!/bin/sh
# check-ui.sh - renders the shipped dataset and looks at the result the way
# a reader does (issue 5): headless Chromium screenshots of report.html at
# laptop and phone width, and report.xlsx opened by LibreOffice, every sheet
# converted to CSV as shown and its numbers checked against analysis.json
# (tests/ui/check_xlsx.py). Not part of `make test`: it needs Chromium and
# LibreOffice (about 1 GB) and pdflatex, which it installs from Debian when it runs as
# root; otherwise it prints the apt-get line and fails.
#
#   scripts/check-ui.sh [BUILD [OUT]]     (make check-ui)
#
# BUILD holds the built tools (default build); OUT (default BUILD/check-ui)
# receives analysis.json, the report, csv/ and screenshots/:
#   laptop.png (1280x900, the first screen), laptop-full.png (1280 wide,
#   whole page), phone.png (390x844), phone-full.png (390 wide, whole page).
# The screenshots are for a person to look at; the script checks only that
# they were written. It also renders a second time and compares every file
# byte for byte, and when pdflatex is installed compiles report.tex in a
# small document (booktabs, siunitx). Exit 0 when the workbook matches the
# analysis, the reruns agree and report.tex compiles.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${2:-$BUILD/check-ui}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
ANALYZE=$BUILD/analyze/rundown-analyze
RENDER=$BUILD/render/rundown-render
for t in "$ANALYZE" "$RENDER"; do
    [ -x "$t" ] || { echo "check-ui: $t not built (run make, or pass the build folder)" >&2; exit 3; }
done

# Debian packages: chromium, and Calc without the desktop UI.
missing=
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v soffice >/dev/null 2>&1 || missing="$missing libreoffice-calc-nogui"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
# report.tex is compiled to prove it is ready to \input: booktabs is in
# texlive-latex-recommended, siunitx in texlive-science.
command -v pdflatex >/dev/null 2>&1 || missing="$missing texlive-latex-recommended"
{ command -v kpsewhich >/dev/null 2>&1 && [ -n "$(kpsewhich siunitx.sty)" ]; } ||
    missing="$missing texlive-science"
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "check-ui: missing$missing; as root run:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
        exit 3
    fi
    echo "check-ui: installing$missing" >&2
    apt-get update >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null
fi

set -- "$ROOT"/data/raw/*.jsonl
[ -f "$1" ] || { echo "check-ui: no data/raw/*.jsonl to render" >&2; exit 3; }
rm -rf "$OUT"
mkdir -p "$OUT/csv" "$OUT/screenshots"
# The same command line as `make report`: its settings are
# data/report.settings, one --set per line.
for s in $(grep -v '^#' "$ROOT/data/report.settings"); do
    set -- --set "$s" "$@"
done
"$ANALYZE" --published "$ROOT/data/published" \
    --title "Node.js vs Deno vs Bun: parallelism and I/O" \
    -o "$OUT/analysis.json" "$@"
"$RENDER" --formats "${RENDER_FORMATS:-all,pdf,png}" -o "$OUT" "$OUT/analysis.json"

# A second render of the same analysis must give the same bytes.
"$RENDER" --formats "${RENDER_FORMATS:-all,pdf,png}" -o "$OUT/again" "$OUT/analysis.json"
differ=0
for f in $(cd "$OUT/again" && find . -type f | sort); do
    cmp -s "$OUT/$f" "$OUT/again/$f" || { echo "check-ui: a rerun differs in $f" >&2; differ=1; }
done
rm -rf "$OUT/again"

# Chromium refuses to run as root inside its sandbox; a throw-away profile
# keeps a user's own Chromium out of it.
profile=$(mktemp -d "${TMPDIR:-/tmp}/check-ui-chromium.XXXXXX")
lo_profile=$(mktemp -d "${TMPDIR:-/tmp}/check-ui-lo.XXXXXX")
trap 'rm -rf "$profile" "$lo_profile"' EXIT INT TERM
shot() { # NAME WIDTH HEIGHT
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$profile" --force-device-scale-factor=1 \
        --window-size="$2,$3" --screenshot="$OUT/screenshots/$1.png" \
        "file://$OUT/report.html" >/dev/null 2>&1 || true
    [ -s "$OUT/screenshots/$1.png" ] || { echo "check-ui: chromium wrote no $1.png" >&2; exit 3; }
}
# "Whole page": a window as tall as the page. Chromium's --screenshot takes
# the window only, so the height is estimated from the HTML's size (about
# 1 px of page per 20 bytes of HTML at laptop width, 8 at phone width) and
# capped where Chromium's surface stops.
bytes=$(wc -c <"$OUT/report.html")
tall() { h=$((bytes / $1)); [ "$h" -lt 2000 ] && h=2000; [ "$h" -gt 16000 ] && h=16000; echo "$h"; }
shot laptop 1280 900
shot laptop-full 1280 "$(tall 20)"
shot phone 390 844
shot phone-full 390 "$(tall 8)"

# Every sheet as shown on screen: Text CSV filter options are separator
# (44 ,), text delimiter (34 "), character set (76 UTF-8), first line (1),
# column formats (none), language (0), quote all text (false), detect
# special numbers (true), save cell contents as shown (true), export
# formulas (false), remove spaces (false), sheet (-1: every sheet, one file
# each, LibreOffice 7.2 and later; the default is the first sheet only).
soffice -env:UserInstallation="file://$lo_profile" --headless \
    --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1' \
    --outdir "$OUT/csv" "$OUT/report.xlsx" >/dev/null 2>&1 || true
ls "$OUT"/csv/*.csv >/dev/null 2>&1 || { echo "check-ui: LibreOffice wrote no CSV" >&2; exit 3; }

status=0
python3 "$ROOT/tests/ui/check_xlsx.py" "$OUT/analysis.json" "$OUT/csv" || status=1

# report.tex as a paper would \input it (only where LaTeX is installed:
# texlive-latex-recommended and texlive-science have booktabs and siunitx).
if command -v pdflatex >/dev/null 2>&1 && [ -f "$OUT/report.tex" ]; then
    mkdir -p "$OUT/tex"
    printf '%s\n' '\documentclass{article}' '\usepackage[T1]{fontenc}' \
        '\usepackage[margin=2cm]{geometry}' '\usepackage{booktabs}' '\usepackage{siunitx}' \
        '\begin{document}' '\input{../report.tex}' '\end{document}' >"$OUT/tex/paper.tex"
    if (cd "$OUT/tex" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >paper.out 2>&1); then
        echo "check-ui: report.tex compiles ($OUT/tex/paper.pdf)"
    else
        echo "check-ui: report.tex does not compile; see $OUT/tex/paper.log" >&2
        status=1
    fi
else
    echo "check-ui: no pdflatex; report.tex not compiled (apt-get install texlive-latex-recommended texlive-science)"
fi
[ "$differ" -eq 0 ] || status=1
echo "check-ui: look at $OUT/screenshots/*.png and $OUT/charts/*.svg"
exit "$status"
