#!/usr/bin/env bash
# parse_cache.sh BUILD ROOT - rundown-analyze's parse cache (storecache.h,
# issue 31) never changes an analysis: the shipped study and a generated
# store analysed cold, warm, after lines were appended and after an early
# line was rewritten give the bytes --no-cache gives, at --threads 1 and 2;
# an unusable cache folder or a damaged cache file is as none; a store
# with a bad line leaves no cache; the daily sweep removes the caches of
# deleted stores and other versions' files. The cache is in a temporary
# folder.
set -u
build=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
A=$build/analyze/rundown-analyze
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-cache.XXXXXX")
trap 'rm -rf "$T"' EXIT
C=$T/cache
cp "$ROOT"/data/raw/*.jsonl "$ROOT"/data/raw/*.json "$T/"
cp -R "$ROOT/data/raw/logs" "$T/logs"
study=$(ls "$T"/*.jsonl | head -1)
settings=()
for s in $(grep -v '^#' "$ROOT/data/report.settings"); do settings+=(--set "$s"); done

# same NAME STORE: every way through the cache gives --no-cache's bytes.
same() {
    local name=$1 store=$2
    for t in 1 2; do
        "$A" --threads $t --no-cache "${settings[@]}" "$store" -o "$T/ref.json" \
            || fail "$name: --no-cache failed"
        "$A" --threads $t --cache-dir "$C" "${settings[@]}" "$store" -o "$T/got.json" \
            || fail "$name: cached analysis failed"
        cmp -s "$T/ref.json" "$T/got.json" || fail "$name: --threads $t differs from --no-cache"
    done
}

same "study cold" "$study"
n=$(ls "$C" | wc -l)
[ "$n" = 1 ] || fail "one cache file per store expected, found $n"
f=$C/$(ls "$C")
[ -s "$f" ] || fail "the cache file is empty"
same "study warm" "$study"

# Appended lines: the cache is extended (replaced by a bigger file).
size0=$(stat -c %s "$f")
tail -n 40 "$study" >>"$study"
same "study after an append" "$study"
size1=$(stat -c %s "$f")
[ "$size1" -gt "$size0" ] || fail "the cache did not grow after an append ($size0 -> $size1)"

# An early line rewritten (same length): the cache no longer fits.
python3 - "$study" <<'EOF' || fail "could not rewrite a line"
import sys
p = sys.argv[1]
b = open(p, 'rb').read()
i = b.index(b'"wall_ms":') + len(b'"wall_ms":')
d = b[i:i + 1]
b = b[:i] + (b'1' if d != b'1' else b'2') + b[i + 1:]
open(p, 'wb').write(b)
EOF
same "study after an early line changed" "$study"

# A last line without its newline is parsed, not cached; once finished
# (and more appended), it is read from the store.
head -c -1 "$study" >"$T/cut.jsonl"
same "a last line without newline" "$T/cut.jsonl"
same "a last line without newline, warm" "$T/cut.jsonl"
printf '\n' >>"$T/cut.jsonl"
same "the last line finished" "$T/cut.jsonl"

# A generated store of many configs (bench/gen_store.py).
/usr/bin/python3 "$ROOT/bench/gen_store.py" --workloads 3 --configs 40 --runs 60 --seed 3 \
    -o "$T/gen.jsonl" >/dev/null || fail "gen_store.py failed"
settings=()
same "generated cold" "$T/gen.jsonl"
same "generated warm" "$T/gen.jsonl"
/usr/bin/python3 "$ROOT/bench/gen_store.py" --workloads 3 --configs 40 --runs 2 --seed 4 \
    -o "$T/more.jsonl" >/dev/null && cat "$T/more.jsonl" >>"$T/gen.jsonl"
same "generated after an append" "$T/gen.jsonl"

# A damaged cache file is as none, and is replaced.
for f in "$C"/*.rdc; do
    printf 'XX' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null
done
same "damaged cache files" "$T/gen.jsonl"

# An unusable cache folder (a file) is as none: same output, no message.
: >"$T/plain"
"$A" --cache-dir "$T/plain/sub" "$T/gen.jsonl" -o "$T/got.json" 2>"$T/err" \
    || fail "an unusable --cache-dir failed the analysis"
"$A" --no-cache "$T/gen.jsonl" -o "$T/ref.json"
cmp -s "$T/ref.json" "$T/got.json" || fail "an unusable --cache-dir changed the analysis"
[ -s "$T/err" ] && fail "an unusable --cache-dir printed: $(cat "$T/err")"

# The sweep: a commit at most once a day (the mtime of .sweep) removes
# the caches of stores deleted and other versions' files, nothing else.
cp "$T/gen.jsonl" "$T/doomed.jsonl"
ls "$C" >"$T/before"
"$A" --cache-dir "$C" "$T/doomed.jsonl" -o "$T/got.json" || fail "sweep: analysis failed"
doomed=$(ls "$C" | grep -vxF -f "$T/before")
[ -n "$doomed" ] && [ -f "$C/$doomed" ] || fail "sweep: the new store got no cache"
[ -f "$C/.sweep" ] || fail "sweep: no .sweep stamp after a commit"
rm "$T/doomed.jsonl"
old=$C/0123456789abcdef0123456789abcdef.rdc
{ printf 'RDCACHE\n\001\000\000\000'; head -c 68 /dev/zero; } >"$old"
echo mine >"$C/notes.txt"
cp "$T/gen.jsonl" "$T/trigger1.jsonl"
"$A" --cache-dir "$C" "$T/trigger1.jsonl" -o "$T/got.json" || fail "sweep: analysis failed"
[ -f "$C/$doomed" ] && [ -f "$old" ] || fail "sweep: swept again within a day"
touch -d '2 days ago' "$C/.sweep"
cp "$T/gen.jsonl" "$T/trigger2.jsonl"
"$A" --cache-dir "$C" "$T/trigger2.jsonl" -o "$T/got.json" || fail "sweep: analysis failed"
[ -e "$C/$doomed" ] && fail "sweep: the cache of a deleted store is left"
[ -e "$old" ] && fail "sweep: another version's cache file is left"
[ -f "$C/notes.txt" ] || fail "sweep: removed a file that is not a cache"
# left: the caches of the study, cut, gen and the two triggers
[ "$(find "$C" -name '*.rdc' | wc -l)" = 5 ] || fail "sweep: 5 caches expected: $(ls "$C")"
same "generated after a sweep" "$T/gen.jsonl"

# A store with a bad line: the same error, and no cache of it.
rm -rf "$C"
{ head -n 5 "$T/gen.jsonl"; echo '{"schema":"rundown.run/1","workload":1}'; } >"$T/bad.jsonl"
"$A" --no-cache "$T/bad.jsonl" >/dev/null 2>"$T/err1"
"$A" --cache-dir "$C" "$T/bad.jsonl" >/dev/null 2>"$T/err2"
cmp -s "$T/err1" "$T/err2" || fail "a bad line's message differs with the cache"
[ -n "$(ls "$C" 2>/dev/null)" ] && fail "a store with a bad line was cached"

# Without HOME and XDG_CACHE_HOME there is no cache and no error.
env -u HOME -u XDG_CACHE_HOME "$A" "$T/gen.jsonl" -o "$T/got.json" \
    || fail "no cache folder failed the analysis"

# --cache-dir needs a folder.
"$A" --cache-dir '' "$T/gen.jsonl" >/dev/null 2>&1
[ $? = 2 ] || fail "--cache-dir '' is not a usage error"

if [ "$fails" -gt 0 ]; then
    echo "parse_cache: $fails failed"
    exit 1
fi
echo "parse_cache: all passed"
