# pushcheck — build, test, run, bench.  `make run` and `make test` are all a fresh machine needs.
SWIFT      ?= swift
CONFIG     ?= debug
BUILD_DIR  ?= .build
SWIFTFLAGS ?= --scratch-path $(BUILD_DIR)
BIN         = $(BUILD_DIR)/$(CONFIG)/pushcheck

# pkg-config name => Debian package that provides it
PKGS = openssl:libssl-dev libnghttp2:libnghttp2-dev libcurl:libcurl4-openssl-dev \
       yaml-0.1:libyaml-dev libxml-2.0:libxml2-dev zlib:zlib1g-dev jemalloc:libjemalloc-dev
# header => Debian package (libraries without a .pc file)
HEADERS = /usr/include/http_parser.h:libhttp-parser-dev /usr/bin/time:time
# command => Debian package (peers used by tests and benchmarks; groff renders pushcheck(1) in
# ManPageAndCompletionTests, objcopy stamps a commit into a binary copy in BuildInfoTests; chromium + chromium-driver:
# the real browser the HTML report and serve's console are tested in (Tests/python/test_web_*.py, via selenium);
# go builds h2spec, below)
TOOLS = pkg-config:pkg-config curl:curl nghttp:nghttp2-client h2load:nghttp2-client \
        nghttpd:nghttp2-server xmllint:libxml2-utils openssl:openssl python3:python3 \
        groff:groff-base objcopy:binutils chromium:chromium chromedriver:chromium-driver go:golang-go
# Go source directory => Debian package: the libraries h2spec (the HTTP/2 conformance suite `make test` runs against
# every listener) is built from, offline, in GOPATH mode (no module proxy).
GOCODE = /usr/share/gocode/src
GO_SOURCES = $(GOCODE)/github.com/fatih/color:golang-github-fatih-color-dev \
        $(GOCODE)/github.com/spf13/cobra:golang-github-spf13-cobra-dev \
        $(GOCODE)/github.com/spf13/pflag:golang-github-spf13-pflag-dev \
        $(GOCODE)/golang.org/x/net:golang-golang-x-net-dev $(GOCODE)/golang.org/x/sys:golang-golang-x-sys-dev \
        $(GOCODE)/golang.org/x/text:golang-golang-x-text-dev \
        $(GOCODE)/github.com/mattn/go-colorable:golang-github-mattn-go-colorable-dev \
        $(GOCODE)/github.com/mattn/go-isatty:golang-github-mattn-go-isatty-dev \
        $(GOCODE)/github.com/inconshreveable/mousetrap:golang-github-inconshreveable-mousetrap-dev

# h2spec 2.6.0 is built from the project's shared tools (a tarball and its build script, kept outside the repo:
# third-party code is never committed). Override with `make H2SPEC_BUILD=/path/to/h2spec-build.sh`.
H2SPEC_BUILD ?= $(firstword $(wildcard ../shared/tools/h2spec-build.sh ../../shared/tools/h2spec-build.sh \
        /work/shared/tools/h2spec-build.sh))
H2SPEC = $(BUILD_DIR)/h2spec/h2spec

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps bench-deps build test run bench bench-compare bench-side bench-ceiling bench-map fuzz clean venv sanitize sanitize-address sanitize-thread format format-check h2spec schema \
        dist-deps dist dist-check

# Python clients the tests drive (firebase-admin, aioapns, pyapns-client, kalyke-apns, httpx …), in a venv
# under .build (never committed). Rebuilt when Tests/python/requirements.txt changes.
VENV = $(BUILD_DIR)/venv
VENV_PYTHON = $(VENV)/bin/python

all: build

# The end of a recipe line that collected Debian package names in the shell variable `missing`: installs them
# (once each), or says that all $(1) are present.
define apt_install_missing
missing=$$(echo $$missing | tr ' ' '\n' | sort -u | tr '\n' ' '); \
	if [ -n "$$(echo $$missing)" ]; then \
	  echo "make $@: installing $$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "make $@: all $(1) present"; fi
endef

deps:
	@missing=""; \
	for pair in $(TOOLS); do cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || [ -x /usr/sbin/$$cmd ] || missing="$$missing $$pkg"; done; \
	for pair in $(PKGS); do pc=$${pair%%:*}; pkg=$${pair##*:}; \
	  pkg-config --exists $$pc 2>/dev/null || missing="$$missing $$pkg"; done; \
	for pair in $(HEADERS); do h=$${pair%%:*}; pkg=$${pair##*:}; \
	  [ -f $$h ] || missing="$$missing $$pkg"; done; \
	for pair in $(GO_SOURCES); do d=$${pair%%:*}; pkg=$${pair##*:}; \
	  [ -d $$d ] || missing="$$missing $$pkg"; done; \
	python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	$(call apt_install_missing,system packages)

# Only for `make dist` / `make dist-check` (README "Install"), not to build or test: command => Debian package.
#   dpkg-shlibdeps (dpkg-dev): the .deb's Depends from the binary's NEEDED libraries, not typed by hand;
#   lintian: checks the .deb as Debian's archive does; objcopy, strip, readelf (binutils): strip and stamp the
#   commit into the binary, list its NEEDED libraries; mmdebstrap: the clean Debian 12 root of dist-check.
DIST_TOOLS = dpkg-shlibdeps:dpkg-dev lintian:lintian objcopy:binutils readelf:binutils mmdebstrap:mmdebstrap

dist-deps:
	@missing=""; \
	for pair in $(DIST_TOOLS); do cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	$(call apt_install_missing,packaging tools)

# Only for `make bench`: perf counts allocations and reference-count operations per request with uprobes
# (Tests/bench/count-bench.sh) and records profiles.
BENCH_TOOLS = perf:linux-perf

bench-deps:
	@missing=""; \
	for pair in $(BENCH_TOOLS); do cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	$(call apt_install_missing,benchmark tools)

build: deps
	$(SWIFT) build $(SWIFTFLAGS) -c $(CONFIG)

# A venv for the third-party Python clients the tests use; rebuilt when requirements.txt changes.
venv: $(VENV)/.installed

$(VENV)/.installed: Tests/python/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/python/requirements.txt
	touch $@

# h2spec, built once into $(BUILD_DIR)/h2spec (Go and its libraries from Debian, `make deps`); the tests find it
# through PUSHCHECK_H2SPEC.
h2spec: $(H2SPEC)

$(H2SPEC):
	@if [ -n "$(H2SPEC_BUILD)" ] && [ -f "$(H2SPEC_BUILD)" ]; then bash $(H2SPEC_BUILD) $(abspath $(BUILD_DIR))/h2spec >/dev/null; \
	else echo "make h2spec: WARNING: h2spec-build.sh not found in ../shared/tools, ../../shared/tools or /work/shared/tools" \
	  "(run make H2SPEC_BUILD=/path/to/h2spec-build.sh): the h2spec tests will be skipped, naming this reason"; fi

# When h2spec could not be built for want of its shared tools, the h2spec tests skip with this reason (printed).
H2SPEC_ENV = env "$$([ -x $(H2SPEC) ] && echo PUSHCHECK_H2SPEC=$(abspath $(H2SPEC)) || \
  echo 'PUSHCHECK_H2SPEC_SKIP=h2spec-build.sh not found (../shared/tools, /work/shared/tools); set H2SPEC_BUILD')"

# The suites the Swift tests write are collected here (Tests/PushcheckTestSupport/SuiteFiles.swift), for the
# schema test's "never stricter than the loader" check (Tests/python/test_suite_schema.py).
SUITE_CORPUS = $(abspath $(BUILD_DIR))/suite-corpus

# format-check first, as in CI (.ci/run): a local `make test` fails where CI would (4-15 s).
test: deps venv h2spec format-check
	$(SWIFT) build $(SWIFTFLAGS) --build-tests
	rm -rf $(SUITE_CORPUS)
	@# Serial: many tests block on external tools (curl, nghttp, openssl, h2spec); on a 2-core machine parallel
	@# tests would starve the cooperative pool and turn timer-based checks flaky.
	$(H2SPEC_ENV) PUSHCHECK_SUITE_CORPUS=$(SUITE_CORPUS) $(SWIFT) test $(SWIFTFLAGS) --skip-build --no-parallel
	@# The project's own regression suite, end to end through the CLI, with its JUnit report.
	$(BIN) run Suites --junit Reports/junit.xml
	@# Real client libraries (aioapns, pyapns_client, kalyke-apns, httpx) as the backend, README's pytest example, and
	@# the HTML report and serve's console in headless chromium (-rs prints why a test skipped: never silently).
	PUSHCHECK=$(abspath $(BIN)) PUSHCHECK_SUITE_CORPUS=$(SUITE_CORPUS) $(VENV_PYTHON) -m pytest -q -rs Tests/python

# Suites/suite.schema.json, for editors (README "Editor support"); SchemaTests fails when it is stale.
schema: build
	$(BIN) schema > Suites/suite.schema.json

run: build
	$(BIN) run Suites --junit Reports/junit.xml

bench: deps bench-deps
	$(SWIFT) build $(SWIFTFLAGS) -c release --product pushcheck
	bash Tests/bench/count-bench.sh $(BUILD_DIR)/release/pushcheck
	bash Tests/bench/gateway-bench.sh $(BUILD_DIR)/release/pushcheck
	bash Tests/bench/runner-bench.sh $(BUILD_DIR)/release/pushcheck 1000 2
	bash Tests/bench/runner-rss.sh $(BUILD_DIR)/release/pushcheck 500 5000
	bash Tests/bench/hardening-bench.sh $(BUILD_DIR)/release/pushcheck
	bash Tests/bench/fcm-bench.sh $(BUILD_DIR)/release/pushcheck

# Two release binaries compared in interleaved rounds (README "Benchmarks"): make bench-compare BEFORE=… AFTER=…
# [ROUNDS=5]. Build the older one with `git worktree add` and `swift build -c release` there.
ROUNDS ?= 5
bench-compare: deps bench-deps
	@[ -x "$(BEFORE)" ] && [ -x "$(AFTER)" ] || { echo "usage: make bench-compare BEFORE=path/to/pushcheck AFTER=path/to/pushcheck [ROUNDS=5]"; exit 2; }
	bash Tests/bench/compare-bench.sh $(BEFORE) $(AFTER) $(ROUNDS)

# Builds and nghttpd side by side, all up at once, in interleaved rounds; CPU per request from the schedstat of each
# server's threads (README "Benchmarks"): make bench-side [BINS="path/to/pushcheck …"] [SIDE_WHAT=fcm] [SIDE_ROUNDS=8].
# Without BINS, the working tree's release build alone against nghttpd.
bench-side: deps bench-deps
	@if [ -z "$(BINS)" ]; then $(SWIFT) build $(SWIFTFLAGS) -c release --product pushcheck; fi
	bash Tests/bench/side-bench.sh $(or $(BINS),$(BUILD_DIR)/release/pushcheck)

# Where a push's cost goes (README "Benchmarks"): the tree built as is, without the history, without the log and
# history, and without any APNs rule (three experiment patches in Tests/bench/ceiling/), side by side with nghttpd at
# 1 loop, in ROUNDS interleaved rounds.
bench-ceiling: deps bench-deps
	bash Tests/bench/ceiling-bench.sh $(ROUNDS)

# Where a push's CPU time goes inside serve, by function, in µs per push, and its mallocs by caller (README
# "Benchmarks"): perf's DWARF call graphs summed by Tests/bench/callee_map.py. Needs root.
bench-map: deps bench-deps
	$(SWIFT) build $(SWIFTFLAGS) -c release --product pushcheck
	bash Tests/bench/map-bench.sh $(BUILD_DIR)/release/pushcheck

# libFuzzer over the parsers of outside input (Sources/FuzzTargets): each target runs FUZZ_SECONDS from the seed
# corpus in Tests/Fuzz/corpus/<target>/ (new inputs go to $(BUILD_DIR)/fuzz-corpus, crashers to
# $(BUILD_DIR)/fuzz-crashers). A crasher fails the run: fix it, then keep it in Tests/Fuzz/crashers/<target>/,
# which FuzzRegressionTests replays in `make test`. The driver links only with -sanitize=fuzzer (and lld), so it
# exists only in this build (PUSHCHECK_FUZZ=1, its own scratch path): plain `swift build` never sees it.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= json jwt yaml plist http1 fcm
FUZZ_BUILD    = $(BUILD_DIR)/fuzz
fuzz: deps
	PUSHCHECK_FUZZ=1 $(SWIFT) build --scratch-path $(FUZZ_BUILD) -c release --product pushcheck-fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD_DIR)/fuzz-corpus/$$t $(BUILD_DIR)/fuzz-crashers/$$t; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/release/pushcheck-fuzz $$t \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD_DIR)/fuzz-crashers/$$t/ \
	    $(BUILD_DIR)/fuzz-corpus/$$t Tests/Fuzz/corpus/$$t 2>&1 | grep -E '^(INFO: seed|#[0-9]+ +DONE|stat::number_of_executed_units|SUMMARY|==[0-9]+==ERROR|.*Test unit written)' ; \
	  status=$${PIPESTATUS[0]}; \
	  if [ $$status -ne 0 ]; then echo "fuzz $$t failed (exit $$status); a crasher, if found, is in $(BUILD_DIR)/fuzz-crashers/$$t/"; exit 1; fi; \
	done

# Sanitizers, each in its own scratch path so the normal debug build is not invalidated. Not part of
# `make test`/CI: see README "Sanitizers" for the figures and why.
ASAN_DIR ?= .build/asan
TSAN_DIR ?= .build/tsan
TSAN_TESTS ?= APNsGatewayTests|HTTPServerTests|SuiteRunnerTests
SANITIZER_ENV = PUSHCHECK_H2SPEC=$(abspath $(H2SPEC)) ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=32 \
  TSAN_OPTIONS=halt_on_error=0:suppressions=$(CURDIR)/Tests/sanitizers/tsan.supp:log_path=$(CURDIR)/$(TSAN_DIR)/report

sanitize: sanitize-address sanitize-thread

sanitize-address: deps h2spec
	$(SWIFT) build --scratch-path $(ASAN_DIR) --build-tests --sanitize=address
	$(SANITIZER_ENV) $(SWIFT) test --scratch-path $(ASAN_DIR) --skip-build --sanitize=address --no-parallel

# Every process's reports (the tests' `pushcheck` subprocesses too) go to $(TSAN_DIR)/report.<pid>.
sanitize-thread: deps h2spec
	$(SWIFT) build --scratch-path $(TSAN_DIR) --build-tests --sanitize=thread
	rm -f $(TSAN_DIR)/report.*
	$(SANITIZER_ENV) $(SWIFT) test --scratch-path $(TSAN_DIR) --skip-build --sanitize=thread --no-parallel \
	  --filter '$(TSAN_TESTS)' || { grep -h SUMMARY $(TSAN_DIR)/report.* 2>/dev/null | sort | uniq -c; exit 1; }
	@! ls $(TSAN_DIR)/report.* 2>/dev/null || { grep -h SUMMARY $(TSAN_DIR)/report.* | sort | uniq -c; exit 1; }

# swift-format (ships with the toolchain) with the checked-in config Sources/.swift-format; Tests/.swift-format is a
# symlink to it so editors and a bare `swift format` on any file find the same one. See README "Code style".
FORMAT_CONFIG = Sources/.swift-format
FORMAT_PATHS  = Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --recursive --parallel --configuration $(FORMAT_CONFIG) $(FORMAT_PATHS)

# Formats a copy of every Swift file and compares: fails, listing the files `make format` would change (with the
# first lines of the diff), if any would. The same command as `make format`, so the two can never disagree.
format-check:
	@set -euo pipefail; \
	[ "$$(readlink Tests/.swift-format)" = ../$(FORMAT_CONFIG) ] || \
	  { echo "format-check: Tests/.swift-format must be a symlink to ../$(FORMAT_CONFIG)"; exit 1; }; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	find $(FORMAT_PATHS) -name '*.swift' -print0 | xargs -0 cp --parents -t "$$tmp"; \
	cp --parents $(FORMAT_CONFIG) "$$tmp"; \
	( cd "$$tmp" && $(SWIFT) format format --in-place --recursive --parallel --configuration $(FORMAT_CONFIG) \
	    $(FORMAT_PATHS) ) || { echo "format-check: swift format failed (see above)"; exit 1; }; \
	changed=$$(find $(FORMAT_PATHS) -name '*.swift' | sort | while read -r f; do \
	  cmp -s "$$f" "$$tmp/$$f" || echo "$$f"; done); \
	if [ -n "$$changed" ]; then \
	  for f in $$changed; do diff -u --label "$$f" --label "$$f (formatted)" "$$f" "$$tmp/$$f" || true; done \
	    > "$$tmp/.diff"; head -n 60 "$$tmp/.diff"; \
	  echo; echo "format-check: $$(echo "$$changed" | wc -l) file(s) not formatted:"; echo "$$changed" | sed 's/^/  /'; \
	  echo "Fix: make format   (swift format with $(FORMAT_CONFIG)), then commit the result."; exit 1; \
	fi; \
	echo "format-check: $$(find $(FORMAT_PATHS) -name '*.swift' | wc -l) files formatted"

# The release binary with the Swift runtime linked in statically, and Reports/dist/pushcheck_<version>_<arch>.deb
# (Tests/dist/make-deb.sh: no Swift library in ldd, strip, commit stamp, man page, completions, Depends, lintian).
# Its own scratch path: --static-swift-stdlib changes every module's flags, so sharing .build/release with
# `make bench` would rebuild everything each time one follows the other.
DIST_BUILD = $(BUILD_DIR)/dist
# Resolve every symbol at start-up so the GOT can be read-only after relocation (lintian: hardening-no-bindnow).
DIST_LDFLAGS = -Xlinker -z -Xlinker now
DIST_DIR   = Reports/dist
dist: deps dist-deps
	$(SWIFT) build --scratch-path $(DIST_BUILD) -c release --static-swift-stdlib --product pushcheck $(DIST_LDFLAGS)
	bash Tests/dist/make-deb.sh $(DIST_BUILD)/release/pushcheck $(DIST_DIR) $(DIST_BUILD)/stage

# The .deb installed the way a user does, in a clean Debian 12 root made by mmdebstrap from Debian's packages
# (no Swift in it; the tarball is cached under $(BUILD_DIR)/dist-root): apt-get install ./pushcheck_….deb, then
# `pushcheck run` on a copy of Suites/, `pushcheck serve` against curl, the man page and the completions.
# Needs root (chroot, mounts). Not in `make test`: .ci/run runs it as its own step (time in README "Install").
dist-check: dist
	bash Tests/dist/dist-check.sh $$(cat $(DIST_DIR)/latest) $(BUILD_DIR)/dist-root

clean:
	rm -rf $(BUILD_DIR) Reports/*.xml Reports/dist
