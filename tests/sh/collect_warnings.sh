#!/usr/bin/env bash
# collect_warnings.sh BUILD ROOT - the warnings after the runs (issue 29
# item 4), in hyperfine's words, after `run` and `http`: a first
# run much slower than the rest without warmups (consider the warmup option
# of that command), none when a warmup took the slow run, and a failed
# command with -i suggested after `run` (http warns each failed run as it
# happens), and after `suite` (issue 29 item 4). The slow first run is 0.5 s against about 0.02 s
# (modified z-score far above hyperfine's 3.5 whatever the machine's load);
# http's is a load run of 100 req/s against about 10000.
. "$(dirname "$0")/require.bash" python3 wrk
set -u
ROOT=$(cd "$2" && pwd) || exit 2
. "$(dirname "$0")/runner_lib.bash" "$1"

# A command slow on its first call in this folder only.
cat > slowfirst.sh <<'SH'
if [ -e "first.$1" ]; then sleep 0.02; else : > "first.$1"; sleep 0.5; fi
SH

# run: no warmup, then one warmup.
"$RC" run -r 8 -o r.jsonl "sh slowfirst.sh run" >/dev/null 2>err.txt || fail "run: exit $?"
grep -q 'warning: sh slowfirst.sh run: the first run was much slower than the rest (.*), maybe caches were cold; consider -w/--warmup$' err.txt ||
    { fail "run: no slow-first warning"; cat err.txt; }
"$RC" run -r 8 -w 1 -o r2.jsonl "sh slowfirst.sh run2" >/dev/null 2>err.txt || fail "run -w 1: exit $?"
grep -q 'first run was much slower' err.txt && { fail "run -w 1: warned though a warmup ran"; cat err.txt; }
# run: a failed command, -i suggested; none with -i.
"$RC" run -r 2 -o f.jsonl "sh -c 'exit 3'" >/dev/null 2>err.txt
grep -q "warning: sh -c 'exit 3': 2 measured runs failed (last exit code 3); if a non-zero exit is expected, consider -i/--ignore-failure" err.txt ||
    { fail "run: no failure warning"; cat err.txt; }

# suite: the same slow first run, no warmups in the suite; none with
# "warmups": 1 (the suite key the warning names).
for wu in 0 1; do
    cat > s$wu.json <<JSON
{"schema": "rundown.suite/1", "name": "sw$wu", "root": ".", "runs": 8, "warmups": $wu,
 "workloads": [{"name": "slow$wu", "class": "cpu", "command": ["sh", "slowfirst.sh", "suite$wu"]}]}
JSON
    "$RC" suite -o suite$wu s$wu.json >/dev/null 2>err.txt || { fail "suite warmups $wu: exit $?"; cat err.txt; }
    if [ $wu = 0 ]; then
        grep -q "warning: slow0: the first run was much slower than the rest (.*), maybe caches were cold; consider the suite key warmups$" err.txt ||
            { fail "suite: no slow-first warning"; cat err.txt; }
    else
        grep -q 'first run was much slower' err.txt && { fail "suite warmups 1: warned though a warmup ran"; cat err.txt; }
    fi
done

# http: a load tool whose first measured run gives 100 req/s, the rest
# about 10000 (wrk's report, data/samples/wrk-default.txt, with its rate).
MARK="rdwarn$$"
cat > srv.py <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
cat > fakewrk.sh <<SH
n=\$(cat calls 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > calls
if [ \$n -eq 1 ]; then rate=100.00; else rate=\$((10000 + n * 37 % 101)).00; fi
sed "s|^Requests/sec: .*|Requests/sec: \$rate|" "$ROOT/data/samples/wrk-default.txt"
SH
P=$(free_port)
"$RC" http --server "python3 srv.py $P $MARK" --url "http://127.0.0.1:$P/" -n 8 -t wrk \
    -w hello -o h.jsonl -- sh fakewrk.sh >/dev/null 2>err.txt || { fail "http: exit $?"; cat err.txt; }
grep -q 'warning: hello: the first run was much slower than the rest (100 req/s), maybe caches were cold; consider -W/--warmup$' err.txt ||
    { fail "http: no slow-first warning"; cat err.txt; }
no_leftovers "http" "$MARK" "$P"
exit $((fails > 0))
