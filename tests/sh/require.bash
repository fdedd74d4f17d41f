# require.bash PROGRAM... - sourced by a shell test before anything else:
#   . "$(dirname "$0")/require.bash" wrk python3
# A test that cannot run here says so and exits 77, which CTest reports as
# skipped (SKIP_RETURN_CODE in tests/CMakeLists.txt) instead of passed.
for rd_required in "$@"; do
    if ! command -v "$rd_required" >/dev/null 2>&1; then
        echo "SKIP: $rd_required not installed"
        exit 77
    fi
done
unset rd_required
