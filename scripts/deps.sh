#!/bin/sh
# deps.sh - install what rundown needs, only what is missing.
#
#   scripts/deps.sh [debian] [npm] [slurm] [test] [bench]   (debian, npm, slurm
#                                                      and test when no argument is given)
#
# slurm: Slurm and MUNGE, which tests/sh/slurm.sh starts as a one-node
# cluster of its own to run `rundown-collect slurm --submit` against (make
# deps and make test install them; the report and the tools do not need
# them, so a user who is not root is only told, and that test is skipped).
# bench: the Debian packages only the benchmarks' reference implementations
# need (pandas and SciPy for bench/analyze.sh; make bench-perf asks for them).
#
# Debian packages: installed with apt-get when run as root (apt-get update
# first when the package lists are missing); otherwise the exact apt-get line
# is printed and the script fails. The JS runtimes and autocannon: installed
# from the npm registry into data/workloads/node_modules with the lock file
# (npm ci), so the versions are exactly the pinned ones. Costs nothing when all
# is present.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)

# gnuplot-nox is built with cairo: it has the pdfcairo and pngcairo
# terminals the charts' PDF and 300 dpi PNG need (checked on Debian 12,
# gnuplot 5.4.4), so no X11 or Qt variant is pulled in.
PACKAGES="cmake gcc g++ clang make pkg-config libcjson-dev libcmark-gfm-dev
libcmark-gfm-extensions-dev libxlsxwriter-dev libgsl-dev libcmocka-dev libxxhash-dev
libfast-float-dev gnuplot-nox wrk hey apache2-utils hyperfine npm time unzip python3"
# g++ and libfast-float-dev: the strtod override (core/src/strtod.cc,
# CMake option RD_FAST_STRTOD; the build goes without it when either is missing).
# time: /usr/bin/time for the tests' and benchmarks' peak RSS; unzip: the
# tests read report.xlsx back; python3: the tests' generators.
BENCH_PACKAGES="python3-pandas python3-scipy"
# SciPy: tests/sh/scipy_verify.sh checks the analyze goldens against it
# (skipped without it; make deps installs it, make report does not need it).
# strace: tests/sh/runner_window.sh reads what a run does inside its timed
# window from a trace (skipped without it).
TEST_PACKAGES="python3-scipy strace"
SLURM_PACKAGES="slurm-wlm munge"

debian() {
    optional=false
    if [ "$1" = --optional ]; then optional=true; shift; fi
    missing=""
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            # npm is only needed when no npm is on PATH (e.g. a nodejs from elsewhere).
            if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
            missing="$missing $p"
        fi
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ] && $optional; then
        echo "deps: not installed (the tests that need them are skipped); as root:" >&2
        echo "  apt-get install -y$missing" >&2
        return 0
    fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "deps: missing Debian packages; run as root:" >&2
        echo "  apt-get install -y$missing" >&2
        exit 1
    fi
    echo "deps: installing$missing" >&2
    if [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v -e '^lock$' -e '^partial$' -e '^auxfiles$')" ]; then
        apt-get update -qq
    fi
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    fi
}

npm_runtimes() {
    dir="$here/data/workloads"
    stamp="$dir/node_modules/.rundown-installed"
    if [ -f "$stamp" ] && [ ! "$dir/package-lock.json" -nt "$stamp" ] \
        && [ -x "$dir/node_modules/.bin/node" ]; then
        return 0
    fi
    command -v npm >/dev/null 2>&1 || { echo "deps: npm not found" >&2; exit 1; }
    echo "deps: installing the pinned JS runtimes (npm ci in data/workloads)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    touch "$stamp"
}

if [ $# -eq 0 ]; then set -- debian npm slurm test; fi
for what in "$@"; do
    case "$what" in
        debian) debian $PACKAGES ;;
        bench) debian $BENCH_PACKAGES ;;
        test) debian $TEST_PACKAGES ;;
        slurm) debian --optional $SLURM_PACKAGES ;;
        npm) [ -f "$here/data/workloads/package-lock.json" ] && npm_runtimes ;;
        *) echo "deps: unknown part '$what' (debian, npm, slurm, test, bench)" >&2; exit 2 ;;
    esac
done
exit 0
