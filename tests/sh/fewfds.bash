# fewfds.bash - sourced by shell tests (not a test itself: ctest runs *.sh
# only). few_fds N CMD...: runs CMD under `ulimit -n N` with only standard
# input, output and error open. ctest leaves other descriptors open, and
# with them the dynamic loader itself gets none at N = 4.
few_fds() {
    (for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
     ulimit -n "$1" && shift && exec "$@")
}
