#!/usr/bin/env bash
# install.sh BUILD ROOT - `make install` as a packager uses it: install into
# a temporary DESTDIR, move the installed tree somewhere else, and render a
# report from there. rundown-render finds its templates from its own path
# (../share/rundown/templates), so nothing of the source or build tree may
# be needed, nor named in the binary.
set -u
build=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# What `make install` runs after building (the build is the test's own).
make -n -C "$ROOT" install BUILD="$build" PREFIX=/opt/rundown DESTDIR="$tmp/stage" 2>&1 |
    grep -q "DESTDIR=\"$tmp/stage\" cmake --install $build --prefix \"/opt/rundown\"" ||
    fail "make install does not run cmake --install with DESTDIR and PREFIX"
DESTDIR="$tmp/stage" cmake --install "$build" --prefix /opt/rundown >"$tmp/log" 2>&1 ||
    { fail "install"; cat "$tmp/log"; exit 1; }
for f in bin/rundown-collect bin/rundown-analyze bin/rundown-render \
         share/rundown/templates/report.md.tmpl share/rundown/templates/report.html.tmpl \
         share/doc/rundown/README.md share/doc/rundown/analysis.md share/doc/rundown/compare.md \
         share/doc/rundown/suite.md share/doc/rundown/methods.md \
         share/man/man1/rundown-collect.1 share/man/man1/rundown-analyze.1 \
         share/man/man1/rundown-render.1; do
    [ -f "$tmp/stage/opt/rundown/$f" ] || fail "not installed: $f"
done
grep -q "$ROOT/templates" "$tmp/stage/opt/rundown/bin/rundown-render" &&
    fail "the source's templates path is compiled into rundown-render"

# Moved as a whole, run from an unrelated folder.
mv "$tmp/stage/opt/rundown" "$tmp/moved"
mkdir "$tmp/work" && cd "$tmp/work" || exit 1
"$tmp/moved/bin/rundown-analyze" --bootstrap 200 -o analysis.json \
    "$ROOT/tests/cases/analyze/0001-small/store.jsonl" 2>err.txt || { fail "analyze"; cat err.txt; }
"$tmp/moved/bin/rundown-render" --formats md,html -o out analysis.json 2>err.txt ||
    { fail "render from the moved tree"; cat err.txt; }
[ -s out/report.md ] && [ -s out/report.html ] || fail "no report from the moved tree"
"$tmp/moved/bin/rundown-render" --help | grep -q "(default: $tmp/moved/bin/../share/rundown/templates)" ||
    fail "render --help does not name the templates next to it"
for m in "$tmp"/moved/share/man/man1/*.1; do
    out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$m" 2>&1 >/dev/null)
    [ -z "$out" ] || fail "man $m: $out"
done

[ $fails -eq 0 ] && echo "install: ok"
exit $((fails > 0))
