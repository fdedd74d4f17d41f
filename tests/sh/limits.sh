#!/usr/bin/env bash
# limits.sh BUILD ROOT - a benchmarked command that floods its output or
# forks many children cannot make rundown-collect exhaust memory or disk.
#
# Measured here (the caps are documented in docs/reliability.md):
#   - 200 MiB on stdout, 200 MiB on stderr, one 200 MiB line without a
#     newline: rundown-collect's peak RSS stays under RSS_LIMIT_KIB, each log
#     file stays at its 1 MiB cap, and the run is stored once.
#   - 1,000,000 'rundown:metric' lines of one name: the last value is stored.
#   - 20,000 distinct metric names: the first 256 (RD_METRIC_NAMES_MAX) are
#     stored, the other lines counted in info.dropped_metric_lines with a
#     warning on stderr.
#   - a command that leaves 200 children behind: all of them are gone when
#     the run is stored (the whole process group is killed), and rundown's
#     RSS is bounded.
. "$(dirname "$0")/require.bash" python3
set -u
build=$(cd "$1" && pwd) || exit 2
RC=$build/collect/rundown-collect
RSS_LIMIT_KIB=${RSS_LIMIT_KIB:-65536}   # 64 MiB, against 200 MiB of output
LOG_CAP=$((1 << 20))
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

T=$(mktemp -d "${TMPDIR:-/tmp}/rundown-limits.XXXXXX")
cleanup() {
    [ -s "$T"/kids ] && for p in $(survivors); do kill -KILL "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 2
[ -x /usr/bin/time ] || { echo "limits: /usr/bin/time is needed (apt-get install time)"; exit 1; }

# run NAME SHELL-COMMAND: one timed run with logs; prints rundown's peak RSS.
run() {
    local name=$1
    shift
    /usr/bin/time -f '%M' -o "rss.$name" \
        "$RC" run -r 1 --workload "$name" --timeout 60 --log-dir "logs/$name" -o store.jsonl --shell=sh -- "$@" \
        >"out.$name" 2>"err.$name"
    echo $? >"rc.$name"
}
check_run() { # NAME: exit code 0, RSS under the limit, logs capped, one record
    local name=$1 rc rss
    rc=$(cat "rc.$name")
    rss=$(tail -1 "rss.$name")
    [ "$rc" -eq 0 ] || { fail "$name: exit $rc"; head -3 "err.$name"; }
    [ "$rss" -lt "$RSS_LIMIT_KIB" ] || fail "$name: rundown-collect peak RSS $rss KiB >= $RSS_LIMIT_KIB KiB"
    local biggest=0 f sz
    for f in $(find "logs/$name" -type f 2>/dev/null); do
        sz=$(wc -c <"$f")
        [ "$sz" -gt "$biggest" ] && biggest=$sz
    done
    # the cap may be followed by one line saying how much was dropped
    [ "$biggest" -le $((LOG_CAP + 256)) ] || fail "$name: a log file holds $biggest bytes (cap $LOG_CAP)"
    local n
    n=$(grep -c "\"workload\":\"$name\"" store.jsonl)
    [ "$n" -eq 1 ] || fail "$name: $n records stored, expected 1"
    echo "limits: $name: exit $rc, rundown-collect peak RSS $rss KiB, largest log $biggest bytes"
}

run flood-stdout 'yes | head -c 200M'
check_run flood-stdout
run flood-stderr 'yes | head -c 200M 1>&2'
check_run flood-stderr
run flood-one-line 'head -c 200M /dev/zero | tr "\0" a'
check_run flood-one-line
run flood-metric-lines 'yes "rundown:metric x_ms=1" | head -n 999999; echo rundown:metric x_ms=7'
check_run flood-metric-lines
grep '"workload":"flood-metric-lines"' store.jsonl | grep -q '"x_ms":7[,}]' ||
    fail "flood-metric-lines: the last value printed (7) is not the one stored"
run long-metric-line 'printf "rundown:metric x_ms=1%0100000d\n" 0; echo rundown:metric y_ms=2'
check_run long-metric-line
run many-metric-names 'awk "BEGIN { for (i = 0; i < 20000; i++) print \"rundown:metric m\" i \"=\" i; print \"rundown:metric m0=7\" }"'
check_run many-metric-names
python3 - store.jsonl <<'PY' || fail "many-metric-names: the record does not hold the first 256 names"
import json, re, sys
r = [json.loads(l) for l in open(sys.argv[1]) if '"many-metric-names"' in l][0]
m = {k: v for k, v in r["metrics"].items() if re.fullmatch(r"m[0-9]+", k)}
# m0..m255 kept (m0 updated to its last value 7), m256.. dropped: 20000 - 256
# lines of new names, counted
want = {"m%d" % i: float(i) for i in range(256)}
want["m0"] = 7.0
ok = m == want and r["info"].get("dropped_metric_lines", "").startswith("19744, first: m256 ")
sys.exit(0 if ok else "got %d names, info %r" % (len(m), r["info"].get("dropped_metric_lines")))
PY
grep -q "many-metric-names measure 1: metric lines dropped: 19744, first: m256" err.many-metric-names ||
    fail "many-metric-names: no warning on stderr"

# 200 children that would outlive their parent by 30 s; each records its
# /proc/PID/stat line (with shell builtins only, so all 200 are quickly up):
# pid, process group and start time (fields 1, 5, 22; the comm '(sh)' has no
# blank), so a pid reused by another process afterwards (ctest runs other
# tests alongside) is never taken for a survivor.
run fork-many 'for i in $(seq 200); do sh -c "read -r st </proc/\$\$/stat; echo \"\$st\" >>kids; exec sleep 30" & done; sleep 0.5; exit 0'
check_run fork-many
# A recorded child that still runs as that same process (same pid and start
# time; a zombie waiting for init to reap it is not running).
survivors() {
    local line pid start st
    while read -r line; do
        set -- $line
        pid=$1 start=${22}
        st=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
        st=${st##*) }                 # "S ppid pgrp ... starttime ..."
        set -- $st
        [ "${20}" = "$start" ] && [ "$1" != Z ] && [ "$1" != X ] && echo "$pid"
    done <kids
}
# The group was sent SIGKILL before the run was stored; on a loaded machine
# (ASan, 2 cores) the kernel may take a while to finish them. Poll up to
# 10 s: a child that escaped the kill still runs after that (its sleep is 30 s).
left=200
for try in $(seq 100); do
    left=$(survivors | wc -l)
    [ "$left" -eq 0 ] && break
    sleep 0.1
done
[ "$(wc -l <kids)" -eq 200 ] || fail "fork-many: $(wc -l <kids) children started, expected 200"
[ "$(cut -d' ' -f5 kids | sort -u | wc -l)" -eq 1 ] || fail "fork-many: the children are not in one process group"
[ "$left" -eq 0 ] || fail "fork-many: $left of 200 children still running after the run was stored: $(survivors | head -5 | tr '\n' ' ')"
echo "limits: fork-many: 200 children, $left left running (after $(( (try - 1) * 100 )) ms)"

# Disk: everything written for these runs (logs and the store).
total=$(du -sk logs store.jsonl | awk '{s += $1} END {print s}')
[ "$total" -lt 16384 ] || fail "runs of 1.2 GB of output used $total KiB of disk"
echo "limits: disk used for 7 runs and ~1.2 GB of output: $total KiB"
[ $fails -eq 0 ] && echo "limits: ok"
[ $fails -eq 0 ]
