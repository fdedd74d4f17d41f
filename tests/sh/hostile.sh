#!/bin/bash
# hostile.sh - runs the hostile-input corpus (tests/hostile/cases.txt) against
# the three tools and compares exit codes and messages with
# tests/hostile/expected.txt.
#
#   tests/sh/hostile.sh [--update] BUILD ROOT [ID...]
#
# Each case runs in a fresh scratch folder holding store.jsonl (a valid
# store) and whatever its PREP step writes. The folder is checksummed after
# PREP and again after the command. For a rejected input (exit code not 0)
# the two listings must be identical: no output file, no temporary file left
# behind, the existing store not changed by a single byte, and nothing on
# standard output. For an accepted input the old store must still be a prefix
# of the new one (append-only).
#
# cases.txt: one case per line, fields separated by ' | ':
#   ID | RC | PREP | CMD
# PREP and CMD are run by bash in the scratch folder with these set:
#   $I  tests/hostile/inputs   $S  data/samples   $ROOT  the repository
# and these helpers: use FILE... (copy inputs here), trunc SAMPLE BYTES NAME
# (the first BYTES bytes of a sample), bigline FILE PREFIX SUFFIX (a 100 MiB
# line of 'a' between PREFIX and SUFFIX). Lines starting with # are comments.
# A field never holds ' | ' except CMD, the last one.
# tests/hostile/known-failing lists IDs of cases that show a known bug (one
# per line, with a comment): a mismatch there is reported as XFAIL.
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
build=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
shift 2
only=" $* "
H=$ROOT/tests/hostile
I=$H/inputs
S=$ROOT/data/samples
export ROOT I S
PATH="$build/collect:$build/analyze:$build/render:$PATH"
export PATH NO_COLOR=1 LC_ALL=C TZ=UTC

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rundown-hostile.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
actual=$scratch/actual.txt
: >"$actual"

helpers='
use() { for f in "$@"; do cp "$I/$f" . || exit 99; done; }
trunc() { head -c "$2" "$S/$1" >"$3" || exit 99; }
bigline() { { printf "%s" "$2"; head -c 104857600 /dev/zero | tr "\\0" a; printf "%s\\n" "$3"; } >"$1" || exit 99; }
'

# Every file under the folder with its checksum (names included, so a new
# or removed file shows up as well as a changed one).
snapshot() {
    (cd "$1" && find . -mindepth 1 \( -type f -o -type l -o -type d \) -print0 |
        LC_ALL=C sort -z | xargs -0 -r sh -c '
            for f; do
                if [ -d "$f" ]; then echo "dir $f"
                elif [ "$(stat -c %s "$f")" -gt 1048576 ]; then
                    echo "$(stat -c "%s %Y.%y" "$f") $f" # the 100 MiB inputs
                else echo "$(cksum <"$f") $f"; fi
            done' sh)
}

known=" "
if [ -f "$H/known-failing" ]; then
    known=" $(sed 's/#.*//' "$H/known-failing" | tr '\n' ' ') "
fi

pass=0 fail=0 xfail=0 xpass=0 total=0
while IFS= read -r line || [ -n "$line" ]; do
    case $line in ''|'#'*) continue ;; esac
    id=$(printf '%s' "$line" | awk -F' [|] ' '{print $1}')
    want=$(printf '%s' "$line" | awk -F' [|] ' '{print $2}')
    prep=$(printf '%s' "$line" | awk -F' [|] ' '{print $3}')
    cmd=$(printf '%s' "$line" | awk -F' [|] ' '{for (i = 4; i < NF; i++) printf "%s | ", $i; print $NF}')
    if [ "$only" != "  " ] && [[ $only != *" $id "* ]]; then continue; fi
    total=$((total + 1))
    w=$scratch/w
    rm -rf "$w"
    mkdir "$w"
    cp "$I/store-good.jsonl" "$w/store.jsonl"
    (cd "$w" && eval "$helpers"$'\n'"$prep") >"$scratch/prep.log" 2>&1
    if [ $? -ne 0 ]; then
        echo "FAIL $id: PREP failed: $(head -3 "$scratch/prep.log")"
        fail=$((fail + 1))
        continue
    fi
    before=$(snapshot "$w")
    cp "$w/store.jsonl" "$scratch/store.before"
    (cd "$w" && eval "$helpers"$'\n'"$cmd") >"$scratch/out" 2>"$scratch/err" </dev/null
    rc=$?
    after=$(snapshot "$w")
    problems=""
    [ "$rc" = "$want" ] || problems="$problems exit code $rc, expected $want;"
    if [ "$rc" != 0 ]; then
        [ "$before" = "$after" ] ||
            problems="$problems the folder changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -4 | tr '\n' ' ');"
        [ -s "$scratch/out" ] && problems="$problems wrote to stdout on failure: $(head -c 80 "$scratch/out");"
    elif [ -f "$w/store.jsonl" ]; then
        n=$(wc -c <"$scratch/store.before")
        cmp -s -n "$n" "$scratch/store.before" "$w/store.jsonl" ||
            problems="$problems the store was rewritten, not appended to;"
    fi
    # Messages: one line each, cut at 300 bytes (the 100 MB cases must not
    # echo their input), scratch paths replaced.
    {
        echo "== $id rc=$rc"
        sed "s|$w|\$W|g; s|$ROOT|\$ROOT|g" "$scratch/err" | cut -c1-300 | head -20
    } >"$scratch/one"
    cat "$scratch/one" >>"$actual"
    if [ $update -eq 0 ]; then
        expected=$(awk -v id="$id" '
            /^== / { on = ($2 == id) } on' "$H/expected.txt")
        [ "$expected" = "$(cat "$scratch/one")" ] ||
            problems="$problems message differs: got '$(sed 1d "$scratch/one" | head -3)', expected '$(printf '%s\n' "$expected" | sed 1d | head -3)';"
    fi
    if [ -z "$problems" ]; then
        if [[ $known == *" $id "* ]]; then
            echo "XPASS $id (listed in known-failing: remove it)"
            xpass=$((xpass + 1))
        fi
        pass=$((pass + 1))
    elif [[ $known == *" $id "* ]]; then
        echo "XFAIL $id:$problems"
        xfail=$((xfail + 1))
    else
        echo "FAIL $id:$problems"
        echo "     cmd: $cmd"
        fail=$((fail + 1))
    fi
done <"$H/cases.txt"

if [ $update -eq 1 ] && [ "$only" != "  " ]; then
    # only the cases named: their blocks are replaced, the others kept
    awk -v sel="$only" '
        FNR == 1 { file++ }
        /^== / { id = $2; keep = (file == 1) != (index(sel, " " id " ") > 0) }
        keep' "$H/expected.txt" "$actual" >"$scratch/merged"
    # put the blocks back in cases.txt order
    for id in $(awk -F' [|] ' '!/^#/ && NF >= 4 {print $1}' "$H/cases.txt"); do
        awk -v id="$id" '/^== / { on = ($2 == id) } on' "$scratch/merged"
    done >"$H/expected.txt"
    echo "hostile: updated $* in $H/expected.txt: check every message by hand"
elif [ $update -eq 1 ]; then
    cp "$actual" "$H/expected.txt"
    echo "hostile: wrote $H/expected.txt ($total cases): check every message by hand"
fi
echo "hostile: $total cases: $pass passed, $fail failed, $xfail known failures${xpass:+, $xpass unexpectedly passing}"
[ $fail -eq 0 ]
