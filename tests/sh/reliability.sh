#!/usr/bin/env bash
# reliability.sh BUILD ROOT - the collect-side trials of issue 28 that fit a
# short shell test (docs/reliability.md, "Issue 28"): each check failed on
# the code before it.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"

# Item 4: -w NAME is kept whole: two names sharing their first 255 bytes
# stay two workloads (import -w never cut them).
long=$(printf 'w%.0s' $(seq 300))
"$RC" run -q -r 1 --workload "${long}1" -o long.jsonl -- true || fail "long name: run 1"
"$RC" run -q -r 1 --workload "${long}2" -o long.jsonl -- true || fail "long name: run 2"
check long.jsonl "long -w kept whole" \
    "sorted(r['workload'] for r in recs) == ['w'*300+'1', 'w'*300+'2']"

# Item 10: 60 Cyrillic letters escape to 360 bytes: the log folder gets a
# shortened name with a hash, the record keeps the full name.
cyr=$(python3 -c "print('я'*60)")
"$RC" run -q -r 1 --workload "${cyr}a" --log-dir logs -o cyr.jsonl -- echo hi 2>err.txt ||
    { fail "non-ASCII name: run"; cat err.txt; }
"$RC" run -q -r 1 --workload "${cyr}b" --log-dir logs -o cyr.jsonl -- echo hi 2>>err.txt ||
    { fail "non-ASCII name: run b"; cat err.txt; }
check cyr.jsonl "non-ASCII names kept" \
    "sorted(r['workload'] for r in recs) == ['я'*60+'a', 'я'*60+'b']"
[ "$(ls logs 2>/dev/null | grep -c "^%D1")" -eq 2 ] || { fail "non-ASCII name: two log folders"; ls logs; }
for f in logs/*; do
    [ "$(basename "$f" | wc -c)" -le 200 ] || fail "non-ASCII name: folder name too long: $f"
done

# Item 12: a summary lost to a full device is an error (exit 3), as a
# failed --export-json is.
"$RC" run -r 2 --workload w -o full.jsonl -- true >/dev/full 2>err.txt
rc=$?
[ $rc -eq 3 ] || { fail "lost summary: exit $rc, expected 3"; cat err.txt; }
grep -q 'could not write the summary' err.txt || { fail "lost summary: message"; cat err.txt; }

# Item 9: under `ulimit -n 4` http says so (EMFILE) instead of calling a
# free port "in use": refused before anything is made, as too few open
# files for a server's runs (the port check says EMFILE too when the
# descriptors run out later).
. "$(dirname "$0")/fewfds.bash"
port=$(free_port)
few_fds 4 "$RC" http -n 1 -w w -o h.jsonl --url "http://127.0.0.1:$port/" \
    --server "python3 -m http.server $port --bind 127.0.0.1" -- true >/dev/null 2>err.txt
rc=$?
[ $rc -eq 3 ] || fail "EMFILE: exit $rc, expected 3"
grep -q 'Too many open files' err.txt && ! grep -q 'is in use' err.txt ||
    { fail "EMFILE: message"; cat err.txt; }
[ ! -e h.jsonl ] || fail "EMFILE: http made its store"

# Item 8 for collect: `run` under `ulimit -n 4` (the smallest limit the
# binary starts at) and 8 is refused before the environment file, a log
# or the store is made, with what it needs; part-way before, it left
# env-*.json, logs/ and empty logs behind.
mkdir few && cd few || exit 1
for n in 4 8; do
    few_fds $n "$RC" run -r 2 -o s.jsonl true >/dev/null 2>../err.txt
    rc=$?
    [ $rc -eq 3 ] || fail "run at ulimit -n $n: exit $rc, expected 3: $(cat ../err.txt)"
    grep -q "cannot collect: Too many open files (ulimit -n is $n); runs need 8 open files" ../err.txt ||
        fail "run at ulimit -n $n: message: $(cat ../err.txt)"
    [ -z "$(ls -A)" ] || fail "run at ulimit -n $n: left $(ls -A | tr '\n' ' ')"
done
cd .. || exit 1

# Item 5: servers that escape their process group. rundown is their
# subreaper: after the server stops, what it left is killed and named.
daemon=$2/tests/sh/daemon_server.py
for mode in setsid double; do
    port=$(free_port)
    "$RC" http -n 1 -w "d-$mode" -o daemon.jsonl --stop-timeout 1 --ready-timeout 10 \
        --url "http://127.0.0.1:$port/" --server "python3 $daemon $port $mode" -- true \
        >/dev/null 2>err.txt
    grep -Eq 'the server left [0-9]+ process(es)? running after it stopped.*killed: pid' err.txt ||
        { fail "daemon $mode: no note of the killed process"; cat err.txt; }
    ! grep -q 'still in use' err.txt || { fail "daemon $mode: port left in use"; cat err.txt; }
    no_leftovers "daemon $mode" "daemon_server.py $port" "$port"
done
# A worker of the server's own group that ends a moment after the leader
# (re-parented to rundown meanwhile) was stopped with the group: no note.
port=$(free_port)
"$RC" http -n 1 -w d-workers -o daemon.jsonl --stop-timeout 2 --ready-timeout 10 \
    --url "http://127.0.0.1:$port/" --server "python3 $daemon $port workers" -- true \
    >/dev/null 2>err.txt
! grep -q 'the server left' err.txt || { fail "daemon workers: a worker ending with its group is noted as left running"; cat err.txt; }
no_leftovers "daemon workers" "daemon_server.py $port" "$port"

finish reliability
