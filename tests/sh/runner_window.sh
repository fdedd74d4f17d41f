#!/usr/bin/env bash
# runner_window.sh BUILD ROOT - what `rundown-collect run` does inside a
# run's timed window, read from strace (issue 31 item 4; no timing is
# asserted). The window runs from the clock read before the spawn to the
# one on the wake-up that sees the child's exit; strace shows it as the
# CLONE_VFORK clone that starts the child to the wait4 that reaps it.
# Inside it, for every run of a command named without a '/':
#   - the child makes one execve: the PATH search was done before the
#     clock (posix_spawnp tried each PATH directory in the child);
#   - the parent makes no open, close, fcntl or read: the guard's
#     /proc/stat and the sampler's /proc listing come before the clock
#     and after the reap, the pipes are made non-blocking before it, and
#     the write ends it keeps are closed after the reap;
#   - the child opens nothing before its execve: the /dev/null its stdin
#     is dup2'd from was opened before the clock;
#   - nor does it ask for a signal's disposition before setting it: every
#     signal is in the spawn's default set (54 queries there before);
#   - the parent waits once: the child's exit wakes it by its pidfd (the
#     end of the pipes woke it first, then a read, a close and a second
#     wait came before the clock stopped).
# The guard reads a fixed /proc (RUNDOWN_PROC_ROOT) and the speed probe a
# file, so the test does not depend on how busy the machine is. The tree
# sampler is on (its /proc listing before the clock, its figures after the
# reap), with its first sample due 1 s after the spawn, which `true` does
# not reach even under strace on a busy machine (at its default of 20 ms
# it did); a run that took a sample anyway (its ppoll timed out) is left
# out, and at least one must remain.
set -u
. "$(dirname "$0")/require.bash" strace python3
. "$(dirname "$0")/runner_lib.bash" "$1"
# A container without ptrace (seccomp, no CAP_SYS_PTRACE) cannot trace.
if ! strace -f -qq -o /dev/null true 2>/dev/null; then
    echo "SKIP: strace cannot trace here (ptrace not permitted)"
    exit 77
fi

mkdir -p proc/pressure
printf 'cpu  100 0 100 1000 0 0 0 0 0 0\ncpu0 50 0 50 500 0 0 0 0 0 0\ncpu1 50 0 50 500 0 0 0 0 0 0\n' > proc/stat
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' > proc/pressure/cpu
echo "1.0 1.0" > speed.txt
# Directories without `true` ahead of the real ones: posix_spawnp would
# try an execve in each.
mkdir -p nobin1 nobin2
# LeakSanitizer cannot run under ptrace (the ASan build of make test):
# the leak check is the other tests' job.
PATH="$TMP/nobin1:$TMP/nobin2:$PATH" RUNDOWN_CONTENTION=warn RUNDOWN_PROC_ROOT="$TMP/proc" \
    RUNDOWN_SPEED_PROBE="$TMP/speed.txt" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -o trace.txt "$RC" run -w 1 -r 5 --sample-interval 1000 -o s.jsonl -- true >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "run: exit $rc"; cat err.txt; }
check s.jsonl "runs stored" 'len(recs) == 6 and all(r["status"] == "ok" and "tree_rss_peak_kib" in r["metrics"] and "machine_others_cpu_pct" in r["metrics"] for r in recs)'

python3 - trace.txt <<'PY' || fails=$((fails + 1))
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
main = lines[0].split()[0]
# strace -f shows a call another process interrupts as "<unfinished ...>"
# and "<... NAME resumed>": each call is counted once, by its start, and
# its result may be on the resumed line (kept: a ppoll's "(Timeout)").
def calls(pid, resumed=False):
    out = []
    for l in lines:
        p, _, rest = l.partition(" ")
        rest = rest.lstrip()
        if p != pid or rest.startswith("---") or rest.startswith("+++"):
            continue
        if rest.startswith("<...") and not resumed:
            continue
        out.append(rest)
    return out
mine = calls(main, resumed=True)
runs, bad = 0, []
i = 0
while i < len(mine):
    if "CLONE_VFORK" not in mine[i]:
        i += 1
        continue
    j = i + 1
    while j < len(mine) and not mine[j].startswith("wait4("):
        j += 1
    # The child's pid: the reaped one.
    m = re.match(r"wait4\((\d+)", mine[j]) if j < len(mine) else None
    child = m.group(1) if m else "?"
    full = mine[i + 1:j]
    window = [c.split("(")[0] for c in full if not c.startswith("<...")]
    i = j + 1
    if any("Timeout" in c for c in full):
        continue  # the tree sampler's tick came: a stalled run, not judged
    execs = [c for c in calls(child) if c.startswith("execve(")]
    if not any('["true"]' in e for e in execs):
        continue  # not a timed run: the environment's `true --version`
    runs += 1
    if len(execs) != 1:
        bad.append(f"child {child}: {len(execs)} execve calls, expected 1 (PATH searched "
                   f"inside the window): {execs[:3]}")
    # Before its execve the child only dup2s: /dev/null for its stdin was
    # opened before the clock (an addopen looked it up and opened it here).
    pre = []
    for c in calls(child):
        if c.startswith("execve("):
            break
        pre.append(c.split("(")[0])
    if any(c in ("openat", "open") for c in pre):
        bad.append(f"child {child}: opened a file before its execve, inside the window: {pre}")
    # Every disposition is set once, never first asked for (glibc asks for
    # a signal outside the spawn's default set, then sets it).
    asked = [c for c in calls(child) if re.match(r"rt_sigaction\([A-Z0-9_]+, NULL", c)]
    if asked:
        bad.append(f"child {child}: {len(asked)} rt_sigaction queries before its execve")
    extra = [c for c in window if c in ("openat", "open", "close", "fcntl", "read", "pread64")]
    if extra:
        bad.append(f"child {child}: the parent called {extra} inside the window: {window}")
    if window.count("ppoll") != 1:
        bad.append(f"child {child}: {window.count('ppoll')} waits inside the window, expected "
                   f"one (woken by the pidfd): {window}")
if runs < 1:
    bad.append("no timed run without a sampler tick to judge")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# The child starts with every signal at its default, even one that
# rundown's parent ignored (a shell's `trap ''` is inherited through exec).
(trap '' USR1; RUNDOWN_CONTENTION=off "$RC" run -w 0 -r 1 -o sig.jsonl -- python3 -c \
    'import signal, sys; sys.exit(signal.getsignal(signal.SIGUSR1) != signal.SIG_DFL)' \
    >/dev/null 2>&1)
check sig.jsonl "SIGUSR1 at its default in the child" 'recs[0]["status"] == "ok"'

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "runner_window: ok"
