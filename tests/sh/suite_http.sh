#!/usr/bin/env bash
# suite_http.sh BUILD ROOT - a suite with a server workload (tiny python3
# server, wrk for 1 s): one session per measured run, warmup load runs
# numbered (r-1)*warmups+k, importer metrics and server sampling stored, a
# crashing config stored as failed, the port free and no process left after
# the suite, and a port already in use refused before anything runs.
. "$(dirname "$0")/require.bash" wrk python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
cleanup_hooks='[ -n "${lpid:-}" ] && kill $lpid 2>/dev/null'
MARK="rdsuitehttp$$"
cat > srv.py <<'PY'
import http.server, os, sys, threading
port, mode = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if mode == "crash" and self.path == "/load":
            os._exit(3)
        body = b"hello\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
P=$(free_port)
cat > s.json <<JSON
{"schema": "rundown.suite/1", "name": "web", "port": $P,
 "workloads": [{"name": "hello", "class": "io", "runs": 2, "warmups": 1,
   "matrix": {"mode": ["ok", "crash"]},
   "server": ["python3", "srv.py", "{port}", "{mode}", "$MARK"],
   "url": "http://{host}:{port}/load", "ready_url": "http://{host}:{port}/",
   "load": ["wrk", "-t1", "-c2", "-d1s", "{url}"], "load_tool": "wrk"}]}
JSON
"$RC" suite -o out s.json 2>err.txt
rc=$?
[ $rc -eq 4 ] || { fail "exit $rc, expected 4"; cat err.txt; }
python3 - out/web.jsonl <<'PY' || fails=$((fails + 1))
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
got = [(r["config"]["mode"], r["phase"], r["run"], r["status"]) for r in recs]
want = [("ok", "warmup", 1, "ok"), ("ok", "measure", 1, "ok"),
        ("crash", "warmup", 1, "failed"), ("crash", "measure", 1, "failed"),
        ("ok", "warmup", 2, "ok"), ("ok", "measure", 2, "ok"),
        ("crash", "warmup", 2, "failed"), ("crash", "measure", 2, "failed")]
ok = got == want
for r in recs:
    if r["config"]["mode"] == "ok":
        m = r["metrics"]
        ok = ok and r["tool"] == "wrk" and m["rps"] > 0 and m["server_rss_peak_kib"] > 1000
        ok = ok and r["info"]["class"] == "io" and r["info"]["primary_metric"] == "rps"
        ok = ok and r["info"]["primary_better"] == "higher" and r["suite"] == "web"
ok = ok and "server exited" in recs[2]["info"]["error"]
if not ok:
    print("FAIL: records", got)
    for r in recs: print("  ", json.dumps(r)[:300])
    sys.exit(1)
PY
no_leftovers "suite" "$MARK" "$P"

# Resume: nothing left to run.
"$RC" suite --resume -o out s.json 2>err.txt
rc=$?
[ $rc -eq 0 ] || fail "resume: exit $rc"
[ "$(wc -l < out/web.jsonl)" -eq 8 ] || fail "resume added runs"

# A port in use is refused before anything runs.
python3 -c "
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $P)); s.listen(1); time.sleep(30)" &
lpid=$!
for i in $(seq 1 100); do
    python3 -c "import socket,sys;s=socket.socket();sys.exit(0 if s.connect_ex(('127.0.0.1',$P))==0 else 1)" && break
    sleep 0.05
done
"$RC" suite -o out2 s.json 2>err.txt
rc=$?
[ $rc -eq 3 ] || fail "port in use: exit $rc, expected 3"
grep -q "workload 'hello': port $P is in use" err.txt || { fail "port in use: message"; cat err.txt; }
[ ! -e out2 ] || fail "port in use: output written"
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null; lpid=

finish suite_http
