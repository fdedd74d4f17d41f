#!/usr/bin/env bash
# run_summary.sh BUILD ROOT - the end of `rundown-collect run`: the summary
# per command and the relative speed line, its Markdown and JSON exports,
# --quiet, and the progress line: shown in a pseudo-terminal (script -qc),
# coloured unless NO_COLOR, absent when stderr is not a terminal.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
command -v script >/dev/null || { echo "skip: no script(1)"; exit 77; }

# 'sleep 0.25' against 'sleep 0.05': the ratio is far from 1 at 4 runs each.
"$RC" run -r 4 -o s.jsonl --export-markdown m.md --export-json j.json \
    'sleep 0.05' 'sleep 0.25' >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "summary: exit $rc"; cat err.txt; }
# Off a terminal: no progress line; only the warnings about the runs
# (issue 29: outliers, a slow first run, on a busy machine) may be there.
! grep -qv '^rundown-collect: warning: ' err.txt ||
    { fail "summary: stderr holds more than warnings off a terminal"; cat err.txt; }
grep -q '^sleep 0.05$' out.txt && grep -q '^sleep 0.25$' out.txt || fail "summary: command headings"
[ "$(grep -c 'Time (mean ± σ):' out.txt)" -eq 2 ] || fail "summary: time lines"
[ "$(grep -c 'Range (min … max):.*4 runs' out.txt)" -eq 2 ] || fail "summary: range lines"
grep -q 'Peak memory:' out.txt || fail "summary: memory"
# The line's form only: which verdict 4 real sleeps give depends on the
# machine's load; the verdict on given times is test_runsummary's (unit).
grep -Eq '^  sleep 0.05 ran [0-9.]+× \([0-9.]+–[0-9.]+×\) faster than sleep 0.25, (p [<=] [0-9.]+|inconclusive \(p [<=] [0-9.]+\))$' out.txt ||
    { fail "summary: relative line"; cat out.txt; }
# The JSON export (hyperfine's layout, in seconds; tests/sh/hyperfine_export.sh
# compares it with hyperfine's own) against the store itself.
python3 - <<'PY' || fails=$((fails + 1))
import json, statistics as st
recs = [json.loads(l) for l in open("s.jsonl")]
runs = {c: [r["metrics"]["wall_ms"] for r in recs if r["config"]["command"] == c] for c in ("sleep 0.05", "sleep 0.25")}
j = json.load(open("j.json"))
assert list(j) == ["results"], j
res = {r["command"]: r for r in j["results"]}
for c, xs in runs.items():
    assert len(res[c]["times"]) == 4 and abs(res[c]["mean"] - st.mean(xs) / 1000) < 1e-12, (c, res[c])
    assert abs(res[c]["stddev"] - st.stdev(xs) / 1000) < 1e-12 and res[c]["min"] == min(xs) / 1000, res[c]
    assert res[c]["exit_codes"] == [0] * 4, res[c]
md = open("m.md").read().splitlines()
assert md[0] == "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |", md
assert md[2].startswith("| `sleep 0.05` | ") and md[2].endswith(" | 1.00 |"), md
assert md[3].startswith("| `sleep 0.25` | %.2f ± " % st.mean(runs["sleep 0.25"])), md
PY

# One run: hyperfine's "Time (abs ≡)", no "± -" and no range of one run.
"$RC" run -r 1 -o one.jsonl 'sleep 0.01' >out.txt 2>err.txt
grep -Eq '^  Time \(abs ≡\): +[0-9.]+ ms    \[User: ' out.txt || { fail "one run: time line"; cat out.txt; }
grep -q '±\|Range' out.txt && { fail "one run: a spread or a range"; cat out.txt; }

# --quiet: nothing at all; without -o the summary goes to stderr.
"$RC" run -q -r 2 -o q.jsonl true >out.txt 2>err.txt
[ ! -s out.txt ] && [ ! -s err.txt ] || fail "quiet: printed something"
"$RC" run -r 2 true >out.txt 2>err.txt
[ "$(wc -l <out.txt)" -eq 2 ] || fail "no -o: stdout is not just the records"
grep -q 'Time (mean' err.txt || fail "no -o: no summary on stderr"

# The progress line, in a pseudo-terminal: runs done, mean and ETA; colour
# unless NO_COLOR is set; nothing with --quiet.
script -qc "env -u NO_COLOR '$RC' run -r 3 -o p.jsonl 'sleep 0.05' 2>&1 >/dev/null" /dev/null >tty.txt
grep -q $'\r\e\\[Ksleep 0.05  \e\\[36m\\[#* *\\]\e\\[0m 2/3  mean [0-9.]* ms  ETA [0-9]* s' tty.txt ||
    { fail "progress: line"; od -c tty.txt | head; }
NO_COLOR=1 script -qc "'$RC' run -r 2 -o p.jsonl 'sleep 0.01' 2>&1 >/dev/null" /dev/null >tty.txt
grep -q $'\r\e\\[Ksleep 0.01  \\[' tty.txt || fail "progress: NO_COLOR line"
grep -q $'\e\\[36m' tty.txt && fail "progress: colour under NO_COLOR"
script -qc "'$RC' run -q -r 2 -o p.jsonl 'sleep 0.01' 2>&1 >/dev/null" /dev/null >tty.txt
[ ! -s tty.txt ] || { fail "progress: --quiet"; od -c tty.txt | head; }

[ $fails -eq 0 ] && echo "run_summary: ok"
exit $((fails > 0))
