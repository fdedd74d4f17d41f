#!/usr/bin/env bash
# readme_options.sh BUILD ROOT - README.md names every option of every tool.
# The options are taken from each tool's own --help (the lines that begin
# with an option), so a new option fails this test until the README's
# section on that command names it (its short or its long spelling).
set -u
build=$(cd "$1" && pwd) || exit 2
ROOT=$(cd "$2" && pwd) || exit 2
readme=$ROOT/README.md
fails=0

# The README section of a command: from its "### " heading to the next heading.
section() {
    awk -v h="### $1" '$0 == h { on = 1; next } /^##+ / { on = 0 } on' "$readme"
}

check() {   # check HEADING BINARY [SUBCOMMAND]
    local heading=$1 bin=$2 help text line spellings opt found
    shift 2
    if ! help=$("$bin" "$@" --help 2>&1); then
        echo "FAIL: $heading: --help failed"
        fails=$((fails + 1))
        return
    fi
    text=$(section "$heading")
    if [ -z "$text" ]; then
        echo "FAIL: README.md has no '### $heading'"
        fails=$((fails + 1))
        return
    fi
    # "  -n, --runs N  text", "      --timeout SEC  text", "  --server CMD  text":
    # one option per line, spelled before the two blanks that start its text.
    while IFS= read -r line; do
        spellings=$(sed -E 's/^ +//; s/  +[^-].*$//' <<<"$line" | grep -oE -- '--?[A-Za-z][a-z0-9-]*')
        [ -n "$spellings" ] || continue   # "-- LOADCMD" of a synopsis
        found=0
        for opt in $spellings; do
            case $opt in -h|--help|--version) found=1; break ;; esac
            if grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" <<<"$text"; then
                found=1
                break
            fi
        done
        if [ $found -eq 0 ]; then
            echo "FAIL: README.md '### $heading' names none of: $(echo $spellings)"
            fails=$((fails + 1))
        fi
    done < <(printf '%s\n' "$help" | grep -E '^ +-')
}

check "rundown-collect import" "$build/collect/rundown-collect" import
check "rundown-collect run" "$build/collect/rundown-collect" run
check "rundown-collect http" "$build/collect/rundown-collect" http
check "rundown-collect suite" "$build/collect/rundown-collect" suite
check "rundown-collect slurm" "$build/collect/rundown-collect" slurm
check "rundown-collect check" "$build/collect/rundown-collect" check
check "rundown-collect env" "$build/collect/rundown-collect" env
check "rundown-analyze" "$build/analyze/rundown-analyze"
check "rundown-render" "$build/render/rundown-render"

if [ $fails -ne 0 ]; then
    echo "readme_options: $fails option(s) missing from README.md"
    exit 1
fi
echo "readme_options: every option of every --help is in README.md"
