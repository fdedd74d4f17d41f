#!/usr/bin/env bash
# suite_paired.sh BUILD ROOT - a workload paired within rounds ("blocks":
# "round", docs/methods.md §6 and §6b) is raced, stopped and budgeted on
# its within-round log ratios, one that is not on its configs' own
# spreads. The command's metric is a fake clock: each config's n-th run
# reads base x o[n] (1 + j), o a round's offset of the host (0.7-1.5, a
# CV of 24 % for each config on its own) and j a jitter of at most
# 0.2 % (a only), so the within-round ratios a/b = 1/1.1 and a/c = 1/1.3
# hardly vary while each config's own values spread by about a quarter.
#   precision 2 %: paired, every config precise after runs_min (4): the
#     half-width of a paired ratio over sqrt 2 (stats/settle.h,
#     rd_settle_config_paired) is 0.0026 at the rule's level at the
#     first look, 0.05 ln(1 + (e - 1) 0.4) x 0.9 = 0.0235, and the paired
#     critical value of k = 3 (SciPy:
#     a = 0.05 * np.log1p((np.e - 1) * 0.4) * 0.9;
#     stats.t.ppf(1 - a / 6, 3) = 6.365;
#     np.std(np.log1p(0.002 * np.array([0, 1, 0, 1])), ddof=1) = 0.001154;
#     6.365 * 0.001154 / np.sqrt(2) / np.sqrt(4) = 0.00260); unpaired,
#     their own CV of 24 % (np.std(o, ddof=1) / o.mean() = 0.2386) keeps
#     them open to the cap of 10.
#   precision 0.01 %: no config is precise; paired, the race's first look
#     (round 5) shows b and c slower than a and eliminates them; unpaired,
#     a 10 % and a 30 % difference at CV 24 % over 5 runs is no claim at
#     the look's level, and every config runs to the cap.
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
cat > clock.sh <<'SH'
f=$2-$1.n; n=$(cat "$f" 2>/dev/null || echo 0); echo $((n + 1)) > "$f"
case $1 in a) b=5;; b) b=5.5;; d) b=5.05;; *) b=6.5;; esac
j=0; [ "$1" = a ] && j=$((n % 2))
awk -v n="$n" -v b="$b" -v j="$j" -v jit="${JIT:-0.002}" 'BEGIN { split("1.0 1.4 0.8 1.2 0.9 1.5 1.1 0.7 1.3 1.0", o, " ");
  printf "rundown:metric calc_ms=%.6f\n", b * o[n % 10 + 1] * (1 + jit * j) }'
SH
suite() { # name precision blocks
    cat > "$1.json" <<JSON
{"schema": "rundown.suite/1", "name": "$1", "root": ".",
 "runs": {"min": 4, "max": 10}, "until": "settled", "precision": $2,
 "workloads": [
  {"name": "clock", "class": "cpu", "primary": {"metric": "calc_ms", "better": "lower"},
   "blocks": "$3",
   "matrix": {"s": ["a", "b", "c"]},
   "command": ["sh", "clock.sh", "{s}", "$1"]}
 ]}
JSON
    "$RC" suite -o "out-$1" "$1.json" 2> "err-$1.txt" || { fail "suite $1 failed"; cat "err-$1.txt"; }
}
runs() { # name expected-python-expression-over-n
    check "out-$1/$1.jsonl" "$2" "(lambda n: $3)({s: sum(1 for r in recs if r.get('phase') == 'measure' and r['config']['s'] == s) for s in ('a', 'b', 'c')})"
}
suite pprec 0.02 round
runs pprec "paired: precise after runs_min" 'n["a"] == n["b"] == n["c"] == 4'
suite uprec 0.02 none
runs uprec "unpaired: open to the cap" 'n["a"] == n["b"] == n["c"] == 10'
suite prace 0.0001 round
runs prace "paired: b and c eliminated at the first look" 'n["a"] == n["b"] == n["c"] == 5'
grep -q "(2 configs eliminated as slower than the best)" err-prace.txt ||
    { fail "no elimination note"; cat err-prace.txt; }
# The analysis replays the race as the collector ran it, paired too
# (analyze/collection.c): b and c eliminated at round 5, the workload
# settled, as the collector stopped it.
"$BUILD/analyze/rundown-analyze" -o a-prace.json "out-prace/prace.jsonl" 2>/dev/null ||
    fail "analyze of the paired race failed"
python3 - a-prace.json <<'PY' || fail "the analysis's replay of the paired race"
import json, sys
c = json.load(open(sys.argv[1]))["workloads"][0]["collection"]
at = {x["id"]: x.get("eliminated_at") for x in c["configs"]}
assert at == {"s=a": None, "s=b": 5, "s=c": 5} and c["stopped"] == "settled", c
PY
suite urace 0.0001 none
runs urace "unpaired: nothing eliminated" 'n["a"] == n["b"] == n["c"] == 10'
! grep -q "eliminated" err-urace.txt || { fail "unpaired race eliminated"; cat err-urace.txt; }
# The budget: after every workload's minimum (4 rounds) the next round
# goes to the workload nearest to settling (§6b). clock (configs a and d,
# d 1 % slower: no race ends it early), paired, has a within-round jitter
# of 3 % (a's n-th run 1.03 times in odd rounds), a paired spread of about
# 0.017 and a few runs to go at a precision of 1 %; unpaired, its own CV
# of 24 % needs hundreds. mid, unpaired in both, prints 100 + n * 7919
# mod 41 (106, 112, ...: CV about 7 %, a few dozen runs). So paired,
# clock's round 6 comes before mid's; unpaired, mid's comes first. Round
# 6, not 5: a raced workload may owe the rounds up to its race's first
# look (5) before the budget orders it. The budget of an hour is never
# spent: only the order of the store's runs is read.
budget() { # name blocks
    cat > "$1.json" <<JSON
{"schema": "rundown.suite/1", "name": "$1", "root": ".",
 "runs": {"min": 4, "max": 12}, "until": "settled", "precision": 0.01,
 "workloads": [
  {"name": "clock", "class": "cpu", "primary": {"metric": "calc_ms", "better": "lower"},
   "blocks": "$2", "matrix": {"s": ["a", "d"]}, "command": ["sh", "clock.sh", "{s}", "$1"]},
  {"name": "mid", "class": "cpu", "primary": {"metric": "v_ms", "better": "lower"},
   "matrix": {"x": ["a", "b"]},
   "command": ["sh", "-c", "f=$1-mid-\$1; n=\$(cat \$f 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > \$f; echo rundown:metric v_ms=\$((100 + n * 7919 % 41))", "sh", "{x}"]}
 ]}
JSON
    JIT=0.03 "$RC" suite --budget 1h -o "out-$1" "$1.json" 2> "err-$1.txt" ||
        { fail "suite $1 failed"; cat "err-$1.txt"; }
}
first6() { # name expression over at (the place of each workload's run 6)
    check "out-$1/$1.jsonl" "$2" "(lambda at: $3)({w: min(i for i, r in enumerate(recs) if r.get('phase') == 'measure' and r['workload'] == w and r['run'] == 6) for w in ('clock', 'mid')})"
}
budget pbudget round
first6 pbudget "paired: the budget serves clock first" 'at["clock"] < at["mid"]'
budget ubudget none
first6 ubudget "unpaired: the budget serves mid first" 'at["mid"] < at["clock"]'
finish suite_paired
