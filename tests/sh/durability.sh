#!/usr/bin/env bash
# durability.sh BUILD ROOT - a render or an analysis killed while it writes
# leaves the previous outputs or the new ones, never a mix, and after
# SIGINT, SIGTERM or SIGHUP no temporary at all.
#
# Renders: an output folder holding the report of analysis A is rendered
# again from analysis B, and the render is sent a signal at a random moment
# of its run (SIGTERM, SIGKILL, SIGINT and SIGHUP in turn). Afterwards every
# file of the folder must be A's or every one B's, byte for byte (sha256
# against reference renders of A and B), and nothing else may be there:
# after SIGKILL a staging folder (.rundown-stage.*) may remain, and the next
# render must remove it. Analyses: rundown-analyze -o of a 60,000-run
# store is sent SIGTERM or SIGKILL in the same way; the file is the old
# document or the new one, and after SIGTERM no analysis.json.tmp.* is left.
#
# ROUNDS (default 12) render rounds and ROUNDS/2 analysis rounds; SEED
# replays a run. Figures: docs/reliability.md.
. "$(dirname "$0")/require.bash" python3 gnuplot sha256sum env
set -u
build=$(cd "$1" && pwd) || exit 2
root=$(cd "$2" && pwd) || exit 2
RA=$build/analyze/rundown-analyze
RR=$build/render/rundown-render
ROUNDS=${ROUNDS:-12}
SEED=${SEED:-$$}
RANDOM=$SEED
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-durability.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2

# Two analyses with many charts (16 workloads x 8 configs) that differ in
# every number, and a store big enough for analyze to take a while.
python3 "$root/bench/gen_store.py" --workloads 16 --configs 8 --runs 5 --seed 1 -o a.jsonl
python3 "$root/bench/gen_store.py" --workloads 16 --configs 8 --runs 5 --seed 2 -o b.jsonl
python3 "$root/bench/gen_store.py" --workloads 20 --configs 10 --runs 200 --seed 3 -o big.jsonl
"$RA" -o a.json a.jsonl && "$RA" -o b.json b.jsonl || { echo "cannot analyse"; exit 1; }

# The sha256 of every entry of a folder by name, dot files included, and
# its folders; a staging folder is counted apart (see the rounds).
sums() {
    (cd "$1" && find . -mindepth 1 -path './.rundown-stage.*' -prune -o \
         \( -type f -o -type l -o -type p \) -print0 | sort -z | xargs -0 -r sha256sum
     find . -mindepth 1 -path './.rundown-stage.*' -prune -o -type d -print | sort)
}

"$RR" -o ref-a a.json && "$RR" -o ref-b b.json || { echo "cannot render"; exit 1; }
# Templates that fail after the staging folder is made: a render with them
# changes nothing of its own, so what it leaves is the sweep's work.
mkdir broken
cp "$root/templates/report.md.tmpl" broken/
printf '<html>{{#body}}\n' >broken/report.html.tmpl
sums ref-a >sums-a
sums ref-b >sums-b
cmp -s sums-a sums-b && { echo "the two reports are the same: nothing to tell apart"; exit 1; }
start=$(date +%s%N)
"$RR" -o timing a.json
took_ms=$((($(date +%s%N) - start) / 1000000))
[ "$took_ms" -gt 0 ] || took_ms=1

signals=(TERM KILL INT HUP)
# A background job of a shell without job control starts with SIGINT
# ignored, which rundown respects (as under nohup): each tool is started
# with the default disposition restored, so SIGINT reaches it. The
# function runs in the job's own subshell, which exec replaces, so $! is
# the tool's pid (env's for the moment before it execs the tool).
dfl() { exec env --default-signal=INT "$@"; }
old=0 new=0 leftover=0 finished=0
for ((i = 0; i < ROUNDS; i++)); do
    sig=${signals[i % 4]}
    rm -rf out
    cp -a ref-a out
    dfl "$RR" -o out b.json 2>err.$i &
    pid=$!
    # Anywhere in the render, and past its end a third of the time.
    delay_ms=$((RANDOM % (took_ms + took_ms / 2 + 1)))
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rc=$?
    stages=$(find out -maxdepth 1 -name '.rundown-stage.*' | wc -l)
    sums out >sums-out
    if cmp -s sums-out sums-a; then
        old=$((old + 1))
    elif cmp -s sums-out sums-b; then
        new=$((new + 1))
    elif [ "$sig" = KILL ] && [ "$stages" -gt 0 ] &&
         [ -n "$(find out -maxdepth 2 -path 'out/.rundown-stage.*/.commit')" ]; then
        # Killed between two renames of its commit: finished by the next
        # render into the folder, even one that fails.
        "$RR" -o out --templates broken b.json 2>/dev/null &&
            fail "round $i: the render with a broken template succeeded"
        sums out >sums-out
        if cmp -s sums-out sums-b && [ -z "$(find out -maxdepth 1 -name '.rundown-stage.*')" ]; then
            finished=$((finished + 1))
            stages=0
        else
            fail "round $i (SIGKILL during the commit): the next render did not finish it"
            diff sums-b sums-out | head -5
        fi
    else
        fail "round $i (SIG$sig after ${delay_ms} ms, rc $rc): the folder is neither the old report nor the new one"
        diff sums-a sums-out | head -5
    fi
    if [ "$sig" != KILL ] && [ "$stages" -gt 0 ]; then
        fail "round $i (SIG$sig, rc $rc): a staging folder was left: $(ls -A out | tr '\n' ' ')"
    fi
    if [ "$sig" = KILL ] && [ "$stages" -gt 0 ]; then
        leftover=$((leftover + 1))
        # The next render into the folder removes what the killed one left.
        "$RR" -o out b.json 2>/dev/null
        [ -z "$(find out -maxdepth 1 -name '.rundown-stage.*')" ] ||
            fail "round $i: the next render left the killed render's staging folder"
    fi
    if [ "$rc" -ne 0 ] && [ "$rc" -ne $((128 + $(kill -l "$sig"))) ]; then
        fail "round $i (SIG$sig): exit code $rc: $(head -c 300 err.$i)"
    fi
done

# SIGKILL at each rename of a commit (build/tests/kill_at_rename.so): the
# random rounds above rarely land between two of them. Charts as the
# gnuplot script and data only, so that no gnuplot inherits the module.
# Wherever it is killed, the journal was written first, so the sweep of
# the next render (with the broken template: it fails, so what the folder
# holds is the sweep's doing) finishes the commit: B. The first k the
# render outlives ends the loop.
shim=$build/tests/kill_at_rename.so
fmts=md,html,xlsx,tex,csv,charts-script
"$RR" -o ref-a2 --formats $fmts a.json && "$RR" -o ref-b2 --formats $fmts b.json ||
    { echo "cannot render"; exit 1; }
sums ref-a2 >sums-a2
sums ref-b2 >sums-b2
kills=0 mixed=0
for ((k = 0; k < 40; k++)); do
    rm -rf out
    cp -a ref-a2 out
    # (The braces keep the shell's "Killed" line out of the log.)
    { KILL_AT_RENAME=$k LD_PRELOAD=$shim ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
        "$RR" -o out --formats $fmts b.json 2>err.k$k; } 2>/dev/null
    rc=$?
    [ "$rc" -eq 0 ] && break
    [ "$rc" -eq 137 ] || { fail "kill at rename $k: exit code $rc: $(head -c 300 err.k$k)"; break; }
    kills=$((kills + 1))
    sums out >sums-out
    cmp -s sums-out sums-a2 || cmp -s sums-out sums-b2 || mixed=$((mixed + 1))
    "$RR" -o out --formats $fmts --templates broken b.json 2>/dev/null &&
        fail "kill at rename $k: the render with a broken template succeeded"
    sums out >sums-out
    cmp -s sums-out sums-b2 ||
        { fail "kill at rename $k: the next render did not finish the commit"
          diff sums-b2 sums-out | head -5; }
    [ -z "$(find out -maxdepth 1 -name '.rundown-stage.*')" ] ||
        fail "kill at rename $k: the next render left the staging folder"
done
[ "$k" -lt 40 ] || fail "the render was killed at each of 40 renames: more than a commit has"
# Eight entries: every kill after the first entry's rename and before the
# last entry's leaves a mix (seven of the eight).
[ "$mixed" -ge 6 ] || fail "only $mixed of $kills kills left the folder mixed: the commit was not hit"

# Analyses: the old document or the new one, no temporary after SIGTERM.
"$RA" -o old.json a.jsonl
"$RA" -o new.json big.jsonl
start=$(date +%s%N)
"$RA" -o timing.json big.jsonl
atook_ms=$((($(date +%s%N) - start) / 1000000))
[ "$atook_ms" -gt 0 ] || atook_ms=1
aold=0 anew=0
for ((i = 0; i < ROUNDS / 2; i++)); do
    sig=${signals[i % 2]}
    cp old.json analysis.json
    dfl "$RA" -o analysis.json big.jsonl 2>aerr.$i &
    pid=$!
    delay_ms=$((RANDOM % (atook_ms + atook_ms / 2 + 1)))
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if cmp -s analysis.json old.json; then
        aold=$((aold + 1))
    elif cmp -s analysis.json new.json; then
        anew=$((anew + 1))
    else
        fail "analysis round $i (SIG$sig after ${delay_ms} ms): analysis.json is neither document"
    fi
    tmps=$(find . -maxdepth 1 -name 'analysis.json.tmp.*' | wc -l)
    [ "$sig" = KILL ] || [ "$tmps" -eq 0 ] || fail "analysis round $i (SIG$sig): $tmps temporaries left"
    rm -f analysis.json.tmp.*
done

echo "durability (seed $SEED): render ${took_ms} ms, $ROUNDS rounds: $old old, $new new," \
     "$finished killed during the commit (finished by the next render)," \
     "$leftover staging folders after SIGKILL (removed by the next render);" \
     "SIGKILL at each of $kills renames of a commit: $mixed left a mix for the next render to finish;" \
     "analyze ${atook_ms} ms, $((ROUNDS / 2)) rounds: $aold old, $anew new; $fails failures"
[ "$fails" -eq 0 ]
