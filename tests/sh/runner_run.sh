#!/usr/bin/env bash
# runner_run.sh BUILD ROOT - `rundown-collect run` end to end: interleaved
# order of several commands, run numbering across calls, warmups, metric
# lines, failures and timeouts (exit 4, runs stored), capped logs, and no
# process left behind by a timed-out command that ignores SIGTERM.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
MARK="rdrun$$"

# Interleaved A B A B after one warmup round; names label the configs.
"$RC" run -r 2 -w 1 --names a,b --workload pair -o s.jsonl \
    -- sh -c 'echo rundown:metric x_ms=1' -- sh -c 'echo rundown:metric x_ms=2' 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "pair: exit $rc"; cat err.txt; }
check s.jsonl "pair order" '[(r["config"]["command"], r["phase"], r["run"]) for r in recs] == [("a","warmup",1),("b","warmup",1),("a","measure",1),("b","measure",1),("a","measure",2),("b","measure",2)]'
check s.jsonl "pair metrics" 'all(r["metrics"]["x_ms"] == (1 if r["config"]["command"] == "a" else 2) and r["metrics"]["wall_ms"] > 0 and r["status"] == "ok" and r["tool"] == "rundown" for r in recs)'
# A second call numbers its runs after the stored ones.
"$RC" run -r 1 --names a,b --workload pair -o s.jsonl \
    -- sh -c 'echo rundown:metric x_ms=1' -- sh -c 'echo rundown:metric x_ms=2' 2>err.txt
check s.jsonl "numbering" '[r["run"] for r in recs[6:]] == [3, 3]'

# A failing command and a timeout: both stored, exit 4.
"$RC" run -r 1 --timeout 0.3 --workload bad -o bad.jsonl \
    -- sh -c "echo oops >&2; exit 3" -- sh -c "trap '' TERM; sleep 30 & wait; : $MARK" 2>err.txt
rc=$?
[ $rc -eq 4 ] || fail "bad: exit $rc, expected 4"
check bad.jsonl "bad" '[(r["status"], r.get("exit_code")) for r in recs] == [("failed", 3), ("timeout", 137)] and recs[0]["info"]["error"] == "exit status 3: oops"'
grep -q "failed: exit status 3: oops" err.txt || fail "bad: no warning"
sleep 0.1
no_leftovers "timeout" "$MARK"

# Logs are capped at 1 MiB per stream; the drop is noted.
# -n names the config (issue 29: a single command is labelled by its name
# or its text), and so the log.
"$RC" run -r 1 --workload big -n zeros -o big.jsonl -- sh -c 'head -c 1100000 /dev/zero' 2>err.txt
check big.jsonl "cap" 'recs[0]["info"]["stdout_log_dropped_bytes"] == str(1100000 - 1048576) and recs[0]["config"] == {"command": "zeros"} and recs[0]["source"]["stdout_log"].startswith("logs/big/zeros-") and recs[0]["source"]["stdout_log"].endswith("-1.stdout.txt")'
[ "$(wc -c < logs/big/zeros-*-1.stdout.txt)" -eq 1048576 ] || fail "log size"

# Standard output without -o; no shell unless --shell.
out=$("$RC" run -r 1 -- echo '$HOME;' 2>/dev/null)
echo "$out" | grep -q '"command":"echo \$HOME;"' || fail "no-shell: $out"
"$RC" run -r 1 --shell=sh -o sh.jsonl -- 'echo "rundown:metric v=$((6*7))"' 2>/dev/null
check sh.jsonl "shell" 'recs[0]["metrics"]["v"] == 42'

# Usage errors store nothing.
"$RC" run -r 1 -o u.jsonl -- rundown-no-such-cmd 2>err.txt
[ $? -eq 2 ] || fail "missing command: exit code"
grep -q "command not found: 'rundown-no-such-cmd'" err.txt || fail "missing command: message"
"$RC" run -r 0 -- true 2>/dev/null; [ $? -eq 2 ] || fail "-n 0 accepted"
[ ! -e u.jsonl ] || fail "usage error wrote a store"

finish runner_run
