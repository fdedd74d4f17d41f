# runner_lib.bash - sourced by the runner_*.sh and suite_*.sh tests (not a
# test itself: ctest runs *.sh only). Call: . runner_lib.bash BUILD
# Sets RC (rundown-collect), enters a fresh temporary folder removed on exit,
# and defines fail, check, free_port and no_leftovers.
BUILD=$(cd "$1" && pwd)
RC=$BUILD/collect/rundown-collect
TMP=$(mktemp -d)
cleanup_hooks=""
trap 'eval "$cleanup_hooks"; rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# check STORE LABEL EXPR: EXPR (Python) must hold over recs, the records.
check() {
    python3 - "$@" <<'PY' || fails=$((fails + 1))
import json, sys
store, label, expr = sys.argv[1], sys.argv[2], sys.argv[3]
recs = [json.loads(l) for l in open(store)]
if not eval(expr):
    print(f"FAIL: {label}: {expr}")
    for r in recs: print("  ", json.dumps(r)[:400])
    sys.exit(1)
PY
}

free_port() {
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

# no_leftovers LABEL MARK [PORT]: no process whose command line holds MARK,
# and nothing accepting connections on PORT.
no_leftovers() {
    sleep 0.1
    if ps -eo args | grep -v grep | grep -q "$2"; then
        fail "$1: processes left behind:"
        ps -eo pid,args | grep -v grep | grep "$2"
    fi
    if [ -n "${3:-}" ] && python3 -c "import socket,sys;s=socket.socket();s.settimeout(0.5);sys.exit(0 if s.connect_ex(('127.0.0.1',$3))==0 else 1)"; then
        fail "$1: port $3 still accepts connections"
    fi
}

# finish NAME: the verdict line and the exit code.
finish() {
    [ $fails -eq 0 ] && echo "$1: ok"
    exit $((fails > 0))
}
