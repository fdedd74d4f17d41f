#!/usr/bin/env bash
# manpages.sh BUILD ROOT - the man pages generated from the option tables
# (man/mangen.c) format without a single groff warning, list every option
# of their tool's table, and have the sections a manual needs.
. "$(dirname "$0")/require.bash" groff
set -u
build=$(cd "$1" && pwd) || exit 2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for tool in rundown-collect rundown-analyze rundown-render; do
    page=$build/man/$tool.1
    [ -s "$page" ] || { fail "$tool.1 was not generated"; continue; }
    # -ww: every warning; -P-cbou: plain text, no overstrike, to grep.
    text=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -P-cbou "$page" 2>"$build/man/$tool.err")
    [ -s "$build/man/$tool.err" ] && fail "$tool.1: groff says: $(cat "$build/man/$tool.err")"
    # A subcommand's option is looked for in its own part of OPTIONS (from
    # its heading to the next), so one command's table missing from the
    # page is caught even when another command has the same option.
    n=0
    commands=$("$build/man/rd-mangen" --list "$tool" | awk 'NF == 2 { print $1 }' | sort -u)
    while read -r cmd opt; do
        [ -n "$opt" ] || { opt=$cmd; cmd=""; }
        n=$((n + 1))
        part=$text
        if [ -n "$cmd" ]; then
            part=$(awk -v c="$cmd" -v all="$(echo $commands)" '
                BEGIN { split(all, names, " "); for (i in names) heading["   " names[i]] = 1 }
                /^EXIT STATUS$/ { on = 0 }
                $0 in heading { on = ($0 == "   " c) }
                on' <<<"$text")
        fi
        grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" <<<"$part" ||
            fail "$tool.1 does not list $opt${cmd:+ under $cmd}"
    done < <("$build/man/rd-mangen" --list "$tool")
    [ $n -gt 0 ] || fail "rd-mangen --list $tool listed nothing"
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES \
                   EXAMPLES "SEE ALSO"; do
        grep -q "^$section\$" <<<"$text" || fail "$tool.1 has no $section section"
    done
    for var in NO_COLOR SOURCE_DATE_EPOCH TZ; do
        grep -q "$var" <<<"$text" || fail "$tool.1 does not name $var"
    done
    grep -q "rundown sources" <<<"$text" && fail "$tool.1 cites the sources, not what is installed"
done
# The gate's exit status is in analyze's page.
groff -man -Tutf8 -P-cbou "$build/man/rundown-analyze.1" 2>/dev/null | grep -qE '^ +5 +[a-z-]' ||
    fail "rundown-analyze.1 does not list exit status 5"

[ $fails -eq 0 ] && echo "manpages: ok"
exit $((fails > 0))
