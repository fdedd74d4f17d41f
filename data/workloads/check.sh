#!/bin/sh
# check.sh - run every workload once on every pinned runtime with tiny
# parameters and check that it works: exit code 0 and the expected
# `rundown:metric` lines; servers must answer the JSON hello on 127.0.0.1
# (one curl, no load tool) and stop on SIGTERM. Needs the runtimes installed
# (make deps). About a minute on an idle 2-core machine (2 min 10 s measured
# here with a load average of 13).
#
#   data/workloads/check.sh [RUNTIME...]      (default: node deno bun)
#
# Exit 0 when everything passed, 1 otherwise; one line per check.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/node_modules/.bin"
cd "$here" || exit 1
[ $# -eq 0 ] && set -- node deno bun
fails=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

cmd_of() {
    case $1 in
        deno) echo "$bin/deno run -A --unstable-net" ;;
        *) echo "$bin/$1" ;;
    esac
}

pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# A free loopback port: ask the kernel through the pinned node.
free_port() {
    "$bin/node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# run RUNTIME NAME METRIC... -- ARGS: the command must exit 0 and print each
# METRIC (NAME, or NAME=VALUE for an exact value).
run() {
    rt=$1 name=$2
    shift 2
    metrics=""
    while [ "$1" != "--" ]; do metrics="$metrics $1"; shift; done
    shift
    timeout 60 $(cmd_of "$rt") "$@" >"$out" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$rt $name: exit $rc ($(tail -n 1 "$out"))"
        return
    fi
    for m in $metrics; do
        # NAME must be printed; NAME=VALUE must be printed with that value.
        case $m in
            *=*) pat="^rundown:metric $m\$" ;;
            *) pat="^rundown:metric $m=" ;;
        esac
        if ! grep -q "$pat" "$out"; then
            fail "$rt $name: no metric $m"
            return
        fi
    done
    pass "$rt $name"
}

# serve RUNTIME NAME ARGS: start, wait for the hello, SIGTERM, expect exit 0.
serve() {
    rt=$1 name=$2
    shift 2
    port=$(free_port)
    $(cmd_of "$rt") "$@" --port "$port" >"$out" 2>&1 &
    pid=$!
    i=0 body=""
    while [ $i -lt 100 ]; do
        body=$(curl -s -m 1 "http://127.0.0.1:$port/" 2>/dev/null) && [ -n "$body" ] && break
        kill -0 $pid 2>/dev/null || break
        i=$((i + 1))
        sleep 0.1
    done
    kill -TERM $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ "$body" != '{"message":"Hello, World!"}' ]; then
        fail "$rt $name: answer '$body' ($(tail -n 1 "$out"))"
    elif [ $rc -ne 0 ]; then
        fail "$rt $name: exit $rc after SIGTERM"
    else
        pass "$rt $name"
    fi
}

for rt in "$@"; do
    if [ ! -x "$bin/$rt" ]; then
        fail "$rt: $bin/$rt is missing (make deps)"
        continue
    fi
    for m in sequential worker process; do
        run "$rt" "cpu-heavycalc $m" heavycalc_total_ms heavycalc_per_call_ms tree_max_rss_kib -- \
            cpu-heavycalc.mjs --mechanism $m --workers 2 --iterations 1000000
    done
    for m in sequential worker process; do
        serve "$rt" "http-hello $m" http-hello.mjs --mechanism $m --workers 2
        serve "$rt" "mixed $m" mixed.mjs --mechanism $m --workers 2 --iterations 1000000
    done
    serve "$rt" "hono-hello" hono-hello.mjs
    # mixed: one calculation through the trigger client.
    port=$(free_port)
    $(cmd_of "$rt") mixed.mjs --mechanism worker --workers 2 --iterations 1000000 --port "$port" >/dev/null 2>&1 &
    pid=$!
    i=0
    until curl -s -m 1 -o /dev/null "http://127.0.0.1:$port/" || [ $i -ge 100 ]; do i=$((i + 1)); sleep 0.1; done
    run "$rt" "mixed trigger" heavycalc_total_ms heavycalc_trigger_wall_ms -- mixed.mjs --trigger "http://127.0.0.1:$port/heavycalc"
    kill -TERM $pid 2>/dev/null
    wait $pid
    run "$rt" "cold-start" -- cold-start.mjs
    for api in node native sync; do
        run "$rt" "file-io $api" fileio_1k_write_ms fileio_1k_read_ms fileio_10k_write_ms fileio_10k_read_ms -- \
            file-io.mjs --api $api --files-1k 20 --files-small 50
    done
    run "$rt" "json" json_stringify_ms json_parse_ms -- json.mjs --users 1000 --iterations 2
    run "$rt" "fib-sort" fib_ms sort_ms -- fib-sort.mjs --fib 20 --sorts 5 --size 1000
    for wake in timer immediate microtask; do
        run "$rt" "loop-wakeup $wake" loop_wakeup_ms loop_wakeup_task_ns -- loop-wakeup.mjs --tasks 1000 --wake $wake --rounds 1
    done
    run "$rt" "compat" compat_express_ok=1 compat_lodash_ok=1 compat_axios_ok=1 compat_date_fns_ok=1 compat_zod_ok=1 \
        compat_sharp_ok=1 compat_node_worker_threads_ok=1 compat_node_child_process_ok=1 compat_node_cluster_ok=1 \
        compat_node_sqlite_ok=1 -- compat.mjs
done

if [ $fails -ne 0 ]; then
    echo "check: $fails failed"
    exit 1
fi
echo "check: all passed"
