#!/bin/sh
# memcheck.sh - runs the golden end-to-end cases (tests/cases/) with each of
# the three tools under valgrind memcheck.
#
#   scripts/memcheck.sh [BUILD] [CASE_DIR...]     (default: build, every case)
#
# The cases run through tests/run_case.sh with a stand-in build folder whose
# rundown-collect, rundown-analyze and rundown-render are wrappers that exec
# valgrind on the real binaries. valgrind's own report goes to a log file per
# process (never into the compared stderr). A case fails when a log holds a
# memory error or a definite leak; a case whose output merely differs under
# valgrind (long double is double there; exec and pidfd_open behave
# differently) is listed as a note. Exit 1 if any case failed.
# Processes started by the tools (benchmarked commands, gnuplot) are not
# traced.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd) || exit 2
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null || { echo "memcheck: valgrind is needed (apt-get install valgrind)" >&2; exit 3; }

fake=$(mktemp -d "${TMPDIR:-/tmp}/rundown-memcheck.XXXXXX")
logs=$fake/logs
mkdir -p "$fake/collect" "$fake/analyze" "$fake/render" "$logs"
trap 'rm -rf "$fake"' EXIT INT TERM
for t in collect/rundown-collect analyze/rundown-analyze render/rundown-render; do
    cat >"$fake/$t" <<EOF
#!/bin/sh
exec valgrind --tool=memcheck --error-exitcode=97 --leak-check=full \\
    --errors-for-leak-kinds=definite --show-leak-kinds=definite \\
    --track-fds=no --quiet --log-file="$logs/%p.log" "$build/$t" "\$@"
EOF
    chmod +x "$fake/$t"
done

if [ $# -eq 0 ]; then
    set -- $(find "$here/tests/cases" -name cmd -type f | sed 's|/cmd$||' | sort)
fi
total=0 failed=0 differ=0
for dir in "$@"; do
    total=$((total + 1))
    rm -f "$logs"/*.log
    out=$("$here/tests/run_case.sh" "$dir" "$fake" 2>&1)
    rc=$?
    # Memory errors and leaks are '==PID==' lines; '--PID--' lines are
    # valgrind's own notes (e.g. a syscall it does not know, like pidfd_open).
    errs=""
    for l in "$logs"/*.log; do
        grep -q '^==[0-9]*==' "$l" 2>/dev/null && errs="$errs $l"
    done
    if [ -n "$errs" ]; then
        failed=$((failed + 1))
        echo "memcheck: FAIL ${dir#$here/}"
        for l in $errs; do grep '^==' "$l" | sed 's/^/    /' | head -40; done
    elif [ $rc -ne 0 ]; then
        # valgrind computes long double as double and runs exec and
        # unknown syscalls its own way: a different result is not a memory
        # error, but it is listed.
        differ=$((differ + 1))
        echo "memcheck: note: ${dir#$here/}: result differs under valgrind (no memory error)"
        printf '%s\n' "$out" | grep -v '^    --' | sed -n '1,4p' | sed 's/^/    /'
    fi
done
echo "memcheck: $total cases: $failed with memory errors or definite leaks, $differ with a different result under valgrind only"
[ $failed -eq 0 ]
