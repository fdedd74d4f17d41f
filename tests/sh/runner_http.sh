#!/usr/bin/env bash
# runner_http.sh BUILD ROOT - `rundown-collect http` end to end against a tiny
# loopback server (python3), with wrk bounded to 1 s per run: a normal
# session, a server crashing mid-run, a server that never answers, SIGINT to
# rundown during a load run, mixed load, a missing load tool, load errors
# (data of an ok run) and runs that measured nothing. After every
# case no process of the case may be left and the port must be free.
. "$(dirname "$0")/require.bash" wrk python3
set -u
ROOT=$(cd "$2" && pwd) || exit 2
. "$(dirname "$0")/runner_lib.bash" "$1"
# Every process of this test carries this marker in its command line.
MARK="rdtest$$"
cat > srv.py <<'PY'
import http.server, os, sys, threading, time
port, mode = int(sys.argv[1]), sys.argv[2]
if mode == "never":
    time.sleep(60)
crashed = [False]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if mode == "crash" and self.path == "/load" and not crashed[0]:
            crashed[0] = True
            threading.Timer(0.3, lambda: os._exit(7)).start()
        body = b"hello\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
print("listening", flush=True)
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
# 1. A normal session: 1 warmup + 2 measured load runs on one server.
P=$(free_port)
"$RC" http --server "python3 srv.py $P ok $MARK" --url "http://127.0.0.1:$P/load" \
    --ready-url "http://127.0.0.1:$P/" -n 2 -W 1 --warmup-load 0.2 -t wrk -w hello \
    -l runtime=python -o ok.jsonl -- wrk -t1 -c2 -d1s "http://127.0.0.1:$P/load" 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "normal session: exit $rc"; cat err.txt; }
check ok.jsonl "normal session" '[ (r["phase"], r["run"], r["status"], r["tool"]) for r in recs] == [("warmup",1,"ok","wrk"),("measure",1,"ok","wrk"),("measure",2,"ok","wrk")] and all(r["metrics"]["rps"] > 0 and r["metrics"]["requests"] > 0 and r["metrics"]["server_rss_peak_kib"] > 1000 and r["metrics"]["server_rss_mean_kib"] <= r["metrics"]["server_rss_peak_kib"] and r["metrics"]["server_cpu_pct"] >= 0 and r["config"] == {"runtime": "python"} and r["env"].startswith("env-") for r in recs)'
ls env-*.json >/dev/null 2>&1 || fail "normal session: no env-*.json next to the store"
no_leftovers "normal session" "$MARK" "$P"

# 2. The server crashes 0.3 s into the first load run.
P=$(free_port)
"$RC" http --server "python3 srv.py $P crash $MARK" --url "http://127.0.0.1:$P/load" \
    --ready-url "http://127.0.0.1:$P/" -n 2 -t wrk -o crash.jsonl \
    -- wrk -t1 -c2 -d1s "http://127.0.0.1:$P/load" 2>err.txt
rc=$?
[ $rc -eq 4 ] || fail "crash: exit $rc, expected 4"
check crash.jsonl "crash" 'len(recs) == 2 and all(r["status"] == "failed" for r in recs) and "exited during the load run (exit status 7)" in recs[0]["info"]["error"] and "had exited before this run" in recs[1]["info"]["error"]'
grep -q "exited during the load run" err.txt || fail "crash: no message on stderr"
no_leftovers "crash" "$MARK" "$P"

# 3. A server that never answers: ready timeout, failed run, its log tail.
P=$(free_port)
"$RC" http --shell --server "echo warming up >&2; exec python3 srv.py $P never $MARK" \
    --url "http://127.0.0.1:$P/" --ready-timeout 1 -n 1 -t wrk -o never.jsonl \
    -- wrk -t1 -c2 -d1s "http://127.0.0.1:$P/" 2>err.txt
rc=$?
[ $rc -eq 4 ] || fail "never ready: exit $rc, expected 4"
grep -q "did not answer http://127.0.0.1:$P/ within 1 s; server log ends: warming up" err.txt ||
    { fail "never ready: message"; cat err.txt; }
check never.jsonl "never ready" 'len(recs) == 1 and recs[0]["status"] == "failed" and recs[0]["source"]["server_log"].endswith("-server.stderr.txt")'
no_leftovers "never ready" "$MARK" "$P"

# 4. SIGINT to rundown while a load run is in flight.
P=$(free_port)
# A background job of a shell without job control starts with SIGINT
# ignored, and rundown keeps an inherited ignore (nohup): env restores the
# default so that the SIGINT below reaches it.
env --default-signal=INT "$RC" http --server "python3 srv.py $P ok $MARK" --url "http://127.0.0.1:$P/" -n 3 -t wrk \
    -o int.jsonl -- wrk -t1 -c2 -d2s "http://127.0.0.1:$P/" 2>err.txt &
pid=$!
for i in $(seq 1 100); do  # until wrk runs (not rundown, whose own command line holds wrk's)
    ps -eo args | grep -q "^wrk -t1 -c2 -d2s http://127.0.0.1:$P/" && break
    sleep 0.05
done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "sigint: exit $rc, expected 130"
[ ! -s int.jsonl ] || fail "sigint: the interrupted run was stored"
if ps -eo args | grep -v grep | grep -q "wrk -t1 -c2 -d2s http://127.0.0.1:$P/"; then fail "sigint: wrk left behind"; fi
no_leftovers "sigint" "$MARK" "$P"

# 5. Mixed load: a background command alongside the load run.
P=$(free_port)
"$RC" http --server "python3 srv.py $P ok $MARK" --url "http://127.0.0.1:$P/" -n 1 -t wrk \
    --background "sh -c 'sleep 0.2; echo rundown:metric bg_calc_ms=12.5'" --shell \
    -o mixed.jsonl -- wrk -t1 -c2 -d1s "http://127.0.0.1:$P/" 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "mixed: exit $rc"; cat err.txt; }
check mixed.jsonl "mixed" 'len(recs) == 1 and recs[0]["status"] == "ok" and recs[0]["metrics"]["bg_calc_ms"] == 12.5 and recs[0]["metrics"]["background_wall_ms"] >= 200 and recs[0]["info"]["background_exit_code"] == "0"'
no_leftovers "mixed" "$MARK" "$P"

# 6. A missing load tool: refused before anything starts.
P=$(free_port)
"$RC" http --server "python3 srv.py $P ok $MARK" --url "http://127.0.0.1:$P/" -n 1 \
    -o missing.jsonl -- rundown-no-such-tool "http://127.0.0.1:$P/" 2>err.txt
rc=$?
[ $rc -eq 2 ] || fail "missing tool: exit $rc, expected 2"
grep -q "command not found: 'rundown-no-such-tool'" err.txt || fail "missing tool: message"
[ ! -e missing.jsonl ] || fail "missing tool: store written"
no_leftovers "missing tool" "$MARK" "$P"

# load_case NAME STORE EXIT TOOL LOADCMD...: one load run of LOADCMD (read
# by TOOL's importer) against a fresh ok server into STORE; rundown must
# exit with EXIT. The caller checks the record, then calls cleared NAME.
load_case() {
    local name=$1 store=$2 want=$3 tool=$4 rc
    shift 4
    P=$(free_port)
    "$RC" http --server "python3 srv.py $P ok $MARK" --url "http://127.0.0.1:$P/" -n 1 \
        -t "$tool" -o "$store" -- "$@" 2>err.txt
    rc=$?
    [ $rc -eq "$want" ] || { fail "$name: exit $rc, expected $want"; cat err.txt; }
}
cleared() { no_leftovers "$1" "$MARK" "$P"; }

# 7. A load tool that exits 0 with a report of socket errors: a finished
# run is a measurement. The run is ok, its counts and error_rate are kept
# ((1243 + 387 + 2210) / (327604 + 1243): wrk's requests hold its
# timeouts), the errors are said in info load_errors, and exit code 0.
load_case "load errors" errors.jsonl 0 wrk cat "$ROOT/data/samples/wrk-latency-errors.txt"
check errors.jsonl "load errors" 'len(recs) == 1 and recs[0]["status"] == "ok" and recs[0]["exit_code"] == 0 and "error" not in recs[0]["info"] and recs[0]["info"]["load_errors"] == "socket errors: read 1243, timeout 387; non-2xx responses: 2210" and recs[0]["metrics"]["error_rate"] == 3840 / 328847'
cleared "load errors"

# 8. The same for the other load tools' importers: ok, with the judge's
# words in load_errors and an error rate.
for sample in autocannon:autocannon-errors.json bombardier:bombardier-result.json \
              oha:oha-json.json k6:k6-summary-export.json; do
    tool=${sample%%:*}
    load_case "$tool judged" "judged-$tool.jsonl" 0 "$tool" cat "$ROOT/data/samples/${sample#*:}"
    check "judged-$tool.jsonl" "$tool judged" 'len(recs) == 1 and recs[0]["status"] == "ok" and recs[0]["info"].get("load_errors") and 0 < recs[0]["metrics"]["error_rate"] < 1'
    cleared "$tool judged"
done

# 9. No measurement came out: a report of no completed request is a failed
# run, and the reason given is the report's, not the exit status.
load_case "no completed request" none.jsonl 4 hey cat "$ROOT/data/samples/hey-local-refused.txt"
check none.jsonl "no completed request" 'len(recs) == 1 and recs[0]["status"] == "failed" and recs[0]["info"]["error"] == "the load tool reported " + recs[0]["info"]["failure"] and recs[0]["info"]["failure"].endswith("no completed requests")'
grep -q "the load tool reported" err.txt || { fail "no completed request: message"; cat err.txt; }
cleared "no completed request"

# 10. A tool that exits non-zero after a report it printed (k6 exits 99
# when a threshold fails) measured something: ok, the exit kept; killed by
# a signal after printing, it crashed: failed.
k6sample="$ROOT/data/samples/k6-summary-export.json"
load_case "exit 99 after a report" exit99.jsonl 0 k6 sh -c "cat '$k6sample'; exit 99"
check exit99.jsonl "exit 99 after a report" 'len(recs) == 1 and recs[0]["status"] == "ok" and recs[0]["exit_code"] == 99 and recs[0]["info"]["load_exit"] == "exit status 99"'
cleared "exit 99 after a report"
load_case "killed after a report" killed.jsonl 4 k6 sh -c "cat '$k6sample'; kill -9 \$\$"
check killed.jsonl "killed after a report" 'len(recs) == 1 and recs[0]["status"] == "failed" and recs[0]["exit_code"] == 137'
cleared "killed after a report"

finish runner_http
