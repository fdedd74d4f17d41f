#!/bin/sh
# The skeleton dataset: the http-hello server (sequential mechanism, native
# API) on node, deno and bun, loaded by wrk. Server pinned to CPU 1, wrk to
# CPU 0. One warmup run per runtime, then RUNS measured runs, interleaved
# (node, deno, bun, node, ...). Each raw wrk output is kept as
# <runtime>-<n>.txt (<runtime>-warmup.txt); /proc/loadavg before each run
# goes to loadavg.txt (other people used this machine at the same time).
#
#   data/raw/logs/http-hello-wrk/collect.sh [PORT]
#
# Import: rundown-collect import -t wrk -w http-hello
#   -l runtime=R -l mechanism=sequential -l tool=wrk R-N.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# Everything is written to a staging folder and moved into place only when
# the whole collection succeeded, so a failed or partial run never mixes
# new files with the committed ones.
out="$here/.staging.$$"
bin="$root/data/workloads/node_modules/.bin"
wl="$root/data/workloads"
port=${1:-18731}
runs=${RUNS:-5}
url="http://127.0.0.1:$port/"

cmd_of() {
    case $1 in
        node) echo "$bin/node $wl/http-hello.mjs --mechanism sequential --port $port" ;;
        deno) echo "$bin/deno run -A $wl/http-hello.mjs --mechanism sequential --port $port" ;;
        bun)  echo "$bin/bun $wl/http-hello.mjs --mechanism sequential --port $port" ;;
    esac
}

one() { # runtime label
    rt=$1 label=$2
    if ss -ltn "sport = :$port" | grep -q LISTEN; then
        echo "collect: port $port is in use; give another: collect.sh PORT" >&2
        exit 1
    fi
    taskset -c 1 $(cmd_of "$rt") >"$out/server-$rt.log" 2>&1 &
    spid=$!
    i=0
    until curl -s -m 1 -o /dev/null "$url"; do
        i=$((i + 1))
        if [ $i -gt 100 ] || ! kill -0 $spid 2>/dev/null; then
            echo "collect: $rt server did not answer; its log:" >&2
            tail -n 20 "$out/server-$rt.log" >&2
            kill $spid 2>/dev/null || true
            exit 1
        fi
        sleep 0.1
    done
    printf '%s %s-%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$rt" "$label" "$(cat /proc/loadavg)" >>"$out/loadavg.txt"
    taskset -c 0 wrk -t1 -c50 -d5s --latency "$url" >"$out/$rt-$label.txt" 2>&1
    kill -TERM $spid
    wait $spid || true
    # The port must be free before the next server starts.
    i=0
    while ss -ltn "sport = :$port" | grep -q LISTEN; do
        i=$((i + 1)); [ $i -gt 50 ] && { echo "collect: port $port still in use" >&2; exit 1; }
        sleep 0.1
    done
}

# Checked before anything is written: a port in use would mean loading
# someone else's server and overwriting this folder's logs with that.
if ss -ltn "sport = :$port" | grep -q LISTEN; then
    echo "collect: port $port is in use; give another: collect.sh PORT" >&2
    exit 1
fi
mkdir "$out"
trap 'rm -rf "$out"' EXIT
: >"$out/loadavg.txt"
{
    echo "collected_at: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "node: $("$bin/node" --version)"
    echo "deno: $("$bin/deno" --version | tr '\n' ' ')"
    echo "bun: $("$bin/bun" --version)"
    echo "wrk: $(wrk -v 2>&1 | head -1)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc)"
    echo "kernel: $(uname -sr)"
    echo "pinning: server taskset -c 1, wrk taskset -c 0"
    echo "load: wrk -t1 -c50 -d5s --latency $url"
    for rt in node deno bun; do echo "server.$rt: $(cmd_of $rt | sed "s|$root/||g")"; done
} >"$out/versions.txt"

for rt in node deno bun; do one $rt warmup; done
n=1
while [ $n -le "$runs" ]; do
    for rt in node deno bun; do one $rt $n; done
    n=$((n + 1))
done
rm -f "$out"/server-*.log
rm -f "$here"/*-warmup.txt "$here"/*-[0-9]*.txt
mv "$out"/* "$here"/
echo "collect: done ($runs runs per runtime)" >&2
