#!/usr/bin/env bash
# collect_env.sh BUILD ROOT - `rundown-collect env`: without a suite the
# tools on PATH that rundown imports from; with --suite the suite's
# runtimes (their version_cmd, or cmd --version) and the load tools of its
# server workloads (a suite's own "tools" entry, else the importer table's
# command; a tool known to neither is left out); -o writes the file, a bad
# suite or a stray argument fails before anything is probed.
set -u
. "$(dirname "$0")/require.bash" python3
. "$(dirname "$0")/runner_lib.bash" "$1"

printf '#!/bin/sh\necho "fake 1.2.3 $1"\n' > v.sh
chmod +x v.sh
cat > s.json <<'JSON'
{"schema":"rundown.suite/1","name":"e",
 "runtimes":{"fake":{"cmd":"sh","version_cmd":["{root}/v.sh"]},"sh":{"cmd":"sh -e"}},
 "tools":{"myload":{"version_cmd":["{root}/v.sh","load"]}},
 "workloads":[{"name":"w","class":"cpu","command":"true","matrix":{"runtime":["fake","sh"]}},
  {"name":"s","class":"io","server":"sleep 1","load":"myload x","port":0},
  {"name":"u","class":"io","server":"sleep 1","load":"/bin/nosuchtool x","port":0}]}
JSON

"$RC" env --suite s.json > out.json 2> err.txt || { fail "env --suite: exit $?"; cat err.txt; }
python3 - <<'PY' || fails=$((fails + 1))
import json
d = json.load(open("out.json"))
assert d["schema"] == "rundown.env/1", d["schema"]
rt, tools = d["runtimes"], d["tools"]
assert sorted(rt) == ["fake", "sh"], rt
assert rt["fake"] == {"version": "fake 1.2.3", "version_cmd": "./v.sh"}, rt["fake"]
assert rt["sh"]["version_cmd"] == "sh -e --version", rt["sh"]
assert sorted(tools) == ["myload"], tools
assert tools["myload"] == {"version": "fake 1.2.3 load", "version_cmd": "./v.sh load"}, tools
PY

# -o: the same document in a file, nothing on stdout.
"$RC" env -o e.json > out2.txt 2> err.txt || { fail "env -o: exit $?"; cat err.txt; }
[ -s out2.txt ] && fail "env -o: wrote to stdout"
python3 -c 'import json; d = json.load(open("e.json")); assert d["schema"] == "rundown.env/1"' ||
    fail "env -o: not an environment"

# A suite with an error: its file and the message, exit 1, no output.
echo '{"schema":"rundown.suite/1","name":"e","workloads":[]}' > bad.json
"$RC" env --suite bad.json -o b.json > out3.txt 2> err.txt
rc=$?
[ $rc -eq 1 ] || fail "env bad suite: exit $rc"
grep -q "bad.json: expected 'workloads' to be a non-empty list" err.txt ||
    { fail "env bad suite: message"; cat err.txt; }
[ -e b.json ] && fail "env bad suite: wrote b.json"

"$RC" env stray > out4.txt 2> err.txt
rc=$?
[ $rc -eq 2 ] || fail "env stray argument: exit $rc"
grep -q "env takes no arguments besides its options" err.txt ||
    { fail "env stray argument: message"; cat err.txt; }

[ $fails -eq 0 ] && echo "collect_env: ok"
exit $((fails > 0))
