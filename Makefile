# rundown - a thin wrapper around CMake. The two commands of the README:
#   make report   render the shipped dataset in data/raw/ into out/
#   make test     build, then run every test (normal and ASan+UBSan builds)

BUILD      ?= build
ASAN_BUILD ?= build-asan
OUT        ?= out
REPORT_TITLE ?= Node.js vs Deno vs Bun: parallelism and I/O
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
ifdef CI
CMAKE_FLAGS += -DRD_WERROR=ON
endif

COLLECT = $(BUILD)/collect/rundown-collect
ANALYZE = $(BUILD)/analyze/rundown-analyze
RENDER  = $(BUILD)/render/rundown-render

.PHONY: all tools deps deps-debian test test-fast asan report bench bench-perf clean fuzz memcheck check-ui install

all: deps-debian
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/deps.sh debian npm slurm test

deps-debian:
	@scripts/deps.sh debian

# The sanitizer build uses clang (a Debian package deps installs; gcc when
# it is missing) while the normal build uses gcc, so both compilers' warnings
# are seen. Clang's -fsanitize=undefined checks what GCC's leaves out: pointer
# arithmetic on NULL (NULL + 0, which fuzz_analyze found in the store reader)
# and float-cast-overflow (a double past the range of the integer it becomes,
# found by fuzz_render_model), named here for a gcc fallback.
ASAN_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
asan: deps-debian
	@# A tree configured with another compiler is configured afresh: switching
	@# compilers in place makes CMake drop its cache and the options below.
	@if [ -f $(ASAN_BUILD)/CMakeCache.txt ] && \
	    ! grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*$(ASAN_CC)$$' $(ASAN_BUILD)/CMakeCache.txt; then \
	    rm -rf $(ASAN_BUILD); fi
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=$(ASAN_CC) -DCMAKE_BUILD_TYPE=Debug -DRD_SANITIZE=address,undefined,float-cast-overflow $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# The normal build, then the same tests under AddressSanitizer and UBSan.
test: deps all asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

test-fast: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The shipped runs predate the suite's key metrics and guards for mixed
# (issue 20 collects them again with the suite that records them), and
# loop-wakeup's compare_within (one decision per task count, issue 26
# item 7): say them here, as the suite does.
# The report's workload settings (data/report.settings, one per line).
REPORT_SETTINGS ?= $(foreach s,$(shell grep -v '^\#' data/report.settings),--set '$(s)')

# Only the three tools (the templates are linked into the build tree when
# it is configured): a first `make report` compiles no test.
tools: deps-debian
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target rundown-collect rundown-analyze rundown-render

# The report needs no JS runtime: only the Debian packages.
report: tools
	@mkdir -p $(OUT)
	$(ANALYZE) --published data/published --title "$(REPORT_TITLE)" $(REPORT_SETTINGS) \
		-o $(OUT)/analysis.json data/raw/*.jsonl
	$(RENDER) --formats all,pdf,png -o $(OUT) $(OUT)/analysis.json
	@echo "report: $(OUT)/report.md $(OUT)/report.html $(OUT)/report.xlsx $(OUT)/report.tex $(OUT)/*.csv ($(OUT)/charts/: SVG, PDF, PNG)"

# The study is adaptive (runs until settled): BUDGET caps its time; a
# second `make bench` resumes it and spends another BUDGET where answers
# are still open.
BUDGET ?= 45m
# A busy machine gives contended runs and wrong means (issue 25): the
# collection starts only when `rundown-collect check` finds it quiet, unless
# BENCH_BUSY_OK=1 says to go ahead anyway.
bench: deps all
	@$(COLLECT) check --window 5 || [ "$(BENCH_BUSY_OK)" = 1 ] || { \
	  echo "make bench: the machine is busy (above); wait, or BENCH_BUSY_OK=1 make bench" >&2; exit 1; }
	$(COLLECT) suite --resume --budget $(BUDGET) -o data/raw data/suites/js-runtimes.json

fuzz:
	@scripts/fuzz.sh

# The report as a reader sees it (docs/render.md): screenshots of
# report.html by headless Chromium, report.xlsx read back by LibreOffice and
# checked against the analysis. Installs both from Debian when run as root.
# Not part of `make test`.
check-ui: all
	scripts/check-ui.sh $(BUILD) $(BUILD)/check-ui

# The golden end-to-end cases under valgrind memcheck.
memcheck: all
	scripts/memcheck.sh $(BUILD)

# Performance figures (docs/performance.md): analyze against pandas + scipy
# and a bare cJSON parse, render, the runner against hyperfine -N on `true`
# and `sleep 0.01`, and analyze and render from 10^3 to 10^5 configs and
# 10^4 to 10^6 runs under /usr/bin/time -v (bench/scale.sh). About 20
# minutes on an idle machine.
PERF_BUILD ?= build-perf
bench-perf: deps-debian
	@scripts/deps.sh bench
	@cmake -S . -B $(PERF_BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(PERF_BUILD) -j $(JOBS) --target rundown-collect rundown-analyze rundown-render
	BUILD=$(PERF_BUILD) bench/analyze.sh
	BUILD=$(PERF_BUILD) bench/render.sh
	bench/runner.sh $(PERF_BUILD)
	BUILD=$(PERF_BUILD) bench/scale.sh

# PREFIX/bin/rundown-{collect,analyze,render}, PREFIX/share/rundown/templates/,
# PREFIX/share/man/man1/; DESTDIR stages it (packaging). The installed tree
# may be moved as a whole: render finds its templates from its own path.
PREFIX ?= /usr/local
install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz $(PERF_BUILD) $(OUT)
