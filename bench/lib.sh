# bench/lib.sh - the start the contention benchmarks share (sourced by
# bash): `bench_start DEFAULT_RUNS "$@"` sets build (argument 1, default
# build), runs (argument 2, default DEFAULT_RUNS), C (the collector),
# tmp (a temporary folder) and hog (empty), and at exit stops the hog the
# script started, by its pid (its process group first, for a hog started
# with setsid), and removes tmp. `bench_quiet WHY` exits 1 with WHY unless
# `rundown-collect check` finds the machine quiet.

bench_start() {
    local default_runs=$1
    shift
    build=${1:-build}
    runs=${2:-$default_runs}
    C=$build/collect/rundown-collect
    tmp=$(mktemp -d)
    hog=
    trap 'bench_stop_hog; rm -rf "$tmp"' EXIT
}

bench_stop_hog() {
    [ -n "$hog" ] || return 0
    kill -- -"$hog" 2>/dev/null || kill "$hog" 2>/dev/null || true
    wait "$hog" 2>/dev/null || true
    hog=
}

bench_quiet() {
    "$C" check || { echo "$1" >&2; exit 1; }
}
