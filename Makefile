# folio: a static site generator for long-form technical blogs.
# Targets: all check unit test asan regress regress-update bench bench-tmpl bench-patho format deps demo dist install clean

CC ?= cc
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
# cmark-gfm comes from deps/ (unpacked Debian 13 packages) when present, else
# from the system (a Debian 13 machine installs it with apt-get).
DEP_PREFIX = $(if $(wildcard deps/usr/include/cmark-gfm.h),deps/usr,/usr)
SYS_LIB := /usr/lib/$(MULTIARCH)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
ifdef CI
WARN += -Werror
endif
# Progress: a short line per step (CC src/md/xref.c, LD folio) unless
# V=1, which prints the commands instead. So that a first build prints a
# few lines, not a hundred and fifty, progress names the first three
# files compiled in a run (an edit's rebuild names them all), then every
# 25th with the count so far, and the link says how many were compiled;
# progress_n counts a kind of file (the grammars): the first, every 20th
# and the last. make expands a recipe in its own process just before
# running it, -j or not, so the counts are exact.
PROGRESS_AT := 1 2 3 $(shell seq 25 25 2000)
ifeq ($(V),1)
Q :=
progress =
progress_n =
else
Q := @
PROGRESS_FILES :=
progress = $(eval PROGRESS_FILES += x)$(if $(filter $(words $(PROGRESS_FILES)),$(PROGRESS_AT)),@printf '  %-5s %s%s\n' '$(1)' '$(2)' '$(if $(word 4,$(PROGRESS_FILES)),$(PROGRESS_SP)($(words $(PROGRESS_FILES)) files so far))')
progress_n = $(eval PROGRESS_N_$(2) += x)$(if $(filter 1 20 40 60 80 100 $(3),$(words $(PROGRESS_N_$(2)))),@printf '  %-5s %s: %s of %s\n' '$(1)' '$(2)' '$(words $(PROGRESS_N_$(2)))' '$(3)')
endif
# progress_ld: the link's line, with the count of files compiled.
progress_ld = $(if $(Q),@printf '  %-5s %s%s\n' LD '$(1)' '$(if $(PROGRESS_FILES),$(PROGRESS_SP)($(words $(PROGRESS_FILES)) files compiled))')
PROGRESS_SP := $(subst ,, )

# The fragments in mk/, one for each dependency fetched by a script of
# its own (the grammars, KaTeX and QuickJS, the math font, model-viewer, the CommonMark
# spec, toml++, libcurl, the image codecs and their resampler, pikchr), add
# their objects, libraries and include paths to these.
EXTRA_OBJ :=
EXTRA_ASAN_OBJ :=
EXTRA_LIBS :=
EXTRA_CPPFLAGS :=
CPPFLAGS_ALL = -D_GNU_SOURCE -iquote src -I$(DEP_PREFIX)/include $(EXTRA_CPPFLAGS)
CFLAGS ?= -O2 -g
CFLAGS_ALL = -std=c11 $(WARN) $(CFLAGS) -pthread
# Each object's header dependencies, written by the compiler beside it
# (build/*/%.d) and read back below: touching a header recompiles only the
# files that include it.
DEPFLAGS = -MMD -MP
# C++ (src/formats/toml.cpp, the shim over toml++; CXX_CPPFLAGS comes
# from mk/toml.mk): C++17, the same warnings but the C-only ones.
CXX_SRC := $(shell find src -name '*.cpp' | sort)
CXX_CPPFLAGS :=
CXXWARN := $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(WARN)) -Wmissing-declarations
CXXFLAGS_ALL = -std=c++17 $(CXXWARN) $(CFLAGS) -pthread
# The C++ runtime: linked statically into the release flavour, so that
# folio needs no libstdc++.so (it is one binary with the system's C
# libraries); the sanitizer and fuzz flavours link the shared one. Asked
# of g++ when linking (=, not :=), after make deps has installed it.
LIBSTDCXX_A = $(shell $(CXX) -print-file-name=libstdc++.a 2>/dev/null)
# --build-id: folio tells itself from another build by the linker's hash
# of the executable (build.c, binary_hash) rather than reading the file
LDFLAGS_ALL = -Wl,--build-id $(LDFLAGS)
# libmicrohttpd (folio serve): static when the system has the archive; the
# TLS library it was built against stays a shared one.
MHD_LIBS = $(if $(wildcard $(SYS_LIB)/libmicrohttpd.a),$(SYS_LIB)/libmicrohttpd.a -lgnutls,-lmicrohttpd)
# cJSON (src/json.c): Debian ships no libcjson.a, so the shared library.
CJSON_LIBS = $(if $(wildcard $(SYS_LIB)/libcjson.a),$(SYS_LIB)/libcjson.a,-lcjson)
# The Snowball stemmers (src/search/stem.c): Debian's libstemmer-dev ships
# libstemmer.a.
STEMMER_LIBS = $(if $(wildcard $(SYS_LIB)/libstemmer.a),$(SYS_LIB)/libstemmer.a,-lstemmer)
# Static libraries: folio is one self-contained binary.
LIBS = $(DEP_PREFIX)/lib/$(MULTIARCH)/libcmark-gfm-extensions.a \
       $(DEP_PREFIX)/lib/$(MULTIARCH)/libcmark-gfm.a \
       $(SYS_LIB)/libyaml.a $(SYS_LIB)/libutf8proc.a $(STEMMER_LIBS) $(MHD_LIBS) $(CJSON_LIBS) $(EXTRA_LIBS) -lm -pthread

THEME := $(sort $(shell find theme -type f ! -name '.*' ! -name '*~' 2>/dev/null))
THEME_EXTRA :=
SRC := $(shell find src -name '*.c' | sort) build/gen/theme.c
LIB_SRC := $(filter-out src/cli/main.c,$(SRC))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))

B := build/release
ASAN_B := build/asan
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: FORCE all deps install uninstall check test test-run asan regress regress-update bench lighthouse bench-tmpl bench-patho format clean demo

all: folio

include mk/highlight.mk mk/math.mk mk/mathfont.mk mk/modelviewer.mk mk/extcheck.mk mk/commonmark.mk mk/toml.mk mk/images.mk \
	mk/pikchr.mk mk/mermaid.mk

deps:
	@sh scripts/deps.sh

deps/.stamp:
	@sh scripts/deps.sh

# The default theme, embedded in the binary.
build/embed: scripts/embed.c
	$(call progress,CC,$<)
	@mkdir -p build
	$(Q)$(CC) -O2 -o $@ $<

# theme.list changes when a theme file is added or removed, so the embedded
# theme is regenerated even when the new file is older than theme.c.
# THEME_EXTRA: NAME=PATH files from deps (model-viewer's script), added by
# fragments in mk/.
build/gen/theme.list: FORCE
	@mkdir -p build/gen
	@echo '$(THEME) $(THEME_EXTRA)' | cmp -s - $@ || echo '$(THEME) $(THEME_EXTRA)' > $@

build/gen/theme.c: build/embed build/gen/theme.list $(THEME) $(foreach f,$(THEME_EXTRA),$(lastword $(subst =, ,$(f))))
	$(call progress,GEN,$@)
	$(Q)build/embed $@ theme $(THEME) $(THEME_EXTRA)

FORCE:

# Theme files are long string literals: longer than the 4095 bytes C11
# promises, which every compiler folio supports accepts.
$(B)/build/gen/%.o: build/gen/%.c
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) $(CFLAGS_ALL) -Wno-overlength-strings -c $< -o $@

$(ASAN_B)/build/gen/%.o: build/gen/%.c
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) -std=c11 $(WARN) -Wno-overlength-strings $(ASAN_FLAGS) -pthread -c $< -o $@

$(B)/%.o: %.c Makefile | deps/.stamp
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) $(CFLAGS_ALL) -c $< -o $@

$(ASAN_B)/%.o: %.c Makefile | deps/.stamp
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) -std=c11 $(WARN) $(ASAN_FLAGS) -pthread -c $< -o $@

$(B)/%.o: %.cpp Makefile | deps/.stamp
	$(call progress,CXX,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CXX_CPPFLAGS) $(CPPFLAGS) $(CXXFLAGS_ALL) -c $< -o $@

$(ASAN_B)/%.o: %.cpp Makefile | deps/.stamp
	$(call progress,CXX,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CXX_CPPFLAGS) $(CPPFLAGS) -std=c++17 $(CXXWARN) $(ASAN_FLAGS) -pthread -c $< -o $@

CXX_OBJ = $(CXX_SRC:%.cpp=$(B)/%.o)
CXX_ASAN_OBJ = $(CXX_SRC:%.cpp=$(ASAN_B)/%.o)

folio: $(SRC:%.c=$(B)/%.o) $(CXX_OBJ) $(EXTRA_OBJ)
	$(call progress_ld,$@)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $^ $(LIBSTDCXX_A) $(LIBS)

$(B)/unit_tests: $(LIB_SRC:%.c=$(B)/%.o) $(TEST_SRC:%.c=$(B)/%.o) $(CXX_OBJ) $(EXTRA_OBJ)
	$(call progress_ld,$@)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $^ $(LIBSTDCXX_A) $(LIBS)

$(ASAN_B)/folio: $(SRC:%.c=$(ASAN_B)/%.o) $(CXX_ASAN_OBJ) $(EXTRA_ASAN_OBJ)
	$(call progress_ld,$@)
	$(Q)$(CC) $(ASAN_FLAGS) $(LDFLAGS_ALL) -o $@ $^ -lstdc++ $(LIBS)

$(ASAN_B)/unit_tests: $(LIB_SRC:%.c=$(ASAN_B)/%.o) $(TEST_SRC:%.c=$(ASAN_B)/%.o) $(CXX_ASAN_OBJ) $(EXTRA_ASAN_OBJ)
	$(call progress_ld,$@)
	$(Q)$(CC) $(ASAN_FLAGS) $(LDFLAGS_ALL) -o $@ $^ -lstdc++ $(LIBS)

$(B)/bench_tmpl: $(LIB_SRC:%.c=$(B)/%.o) $(B)/bench/bench_tmpl.o $(CXX_OBJ) $(EXTRA_OBJ)
	$(call progress_ld,$@)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $^ $(LIBSTDCXX_A) $(LIBS)

# The unit test modules: NAME for each tests/unit/test_NAME.c built (but
# test_main.c, which runs them), as UNIT(NAME) lines in unit_list.h, which
# harness.h and test_main.c include; rewritten only when the list changes
# (a file added, removed, or wired in by a fragment), like theme.list.
UNIT_MODULES := $(sort $(filter-out main,$(TEST_SRC:tests/unit/test_%.c=%)))
UNIT_LIST = { echo '/* Generated by the Makefile from TEST_SRC: do not edit. */'; printf 'UNIT(%s)\n' $(UNIT_MODULES); }
build/gen/unit_list.h: FORCE
	@mkdir -p build/gen
	@$(UNIT_LIST) | cmp -s - $@ || $(UNIT_LIST) >$@

$(TEST_SRC:%.c=$(B)/%.o) $(TEST_SRC:%.c=$(ASAN_B)/%.o): build/gen/unit_list.h
$(TEST_SRC:%.c=$(B)/%.o) $(TEST_SRC:%.c=$(ASAN_B)/%.o): CPPFLAGS_ALL += -iquote build/gen

# One unit module or a few, alone: make unit M=markdown (or M="markdown
# yaml", M=markdown,yaml); without M, every one. `build/release/unit_tests
# -h` tells its options (-l lists the modules, -t times each).
.PHONY: unit
unit:
	@$(MAKE) --no-print-directory $(B)/unit_tests
	@$(B)/unit_tests $(addprefix -m ,$(M)) tests/tmpl man/folio-template.5

# The builds that the test targets start run a job per core unless make
# was given -j.
BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS))$(findstring j,$(firstword -$(MAKEFLAGS))),,-j$(shell nproc 2>/dev/null || echo 1))

test: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) folio $(B)/unit_tests
	@$(MAKE) --no-print-directory test-run

test-run: folio $(B)/unit_tests
	@FOLIO=./folio UNIT=$(B)/unit_tests sh tests/run.sh

# The quick loop (under a minute): the unit tests, the golden sites and the
# suites that build small sites; `make test` runs everything. They run two
# at a time (CHECK_JOBS), the unit tests and the longest suites first, so
# that the two cores finish together.
CHECK_SUITES := test_links test_files test_sites test_import test_man5 test_new test_man1 test_usage test_unread test_theme test_rules \
	test_diagrams test_cite test_notebook
CHECK_JOBS := 2
check: deps rules
	@$(MAKE) --no-print-directory $(BUILD_JOBS) folio $(B)/unit_tests
	@TEST_JOBS=$(CHECK_JOBS) SUITES="$(CHECK_SUITES)" FOLIO=./folio UNIT=$(B)/unit_tests sh tests/run.sh

# The rules of src/README, checked (scripts/rules.py): which folders each
# folder may use, where threads start, where files are read and written,
# where cache files are named, no hand-made hash tables, no function over
# 120 lines but a state machine said above it. Part of make check.
.PHONY: rules
rules:
	@python3 scripts/rules.py

# The mutation campaign (tests/mutate/README): each mistake of the catalogue
# put into a scratch copy, `make check` then `make test` run against it; the
# kill rates and the survivors printed. About an hour; not in CI.
# MUTATE_ONLY=id,id runs some of them.
.PHONY: mutate
mutate: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) folio $(B)/unit_tests
	@python3 tests/mutate/run.py $(if $(MUTATE_ONLY),--only $(MUTATE_ONLY))

asan: deps
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(ASAN_B)/folio $(ASAN_B)/unit_tests
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		FOLIO=$(ASAN_B)/folio UNIT=$(ASAN_B)/unit_tests sh tests/run.sh

regress: folio
	@FOLIO=./folio sh tests/cli/test_sites.sh

regress-update: folio
	@REGRESS_UPDATE=1 FOLIO=./folio sh tests/cli/test_sites.sh

# Build speed on the 1,000- and 10,000-post corpora, beside Hugo (installed
# with apt-get when running as root), and the search index beside Pagefind
# (bench/package.json, npm ci), and resized images beside Hugo's on 40
# generated photographs and screenshots (bench/images.py; the generator
# needs Pillow, python3-pil, installed with apt-get when running as root),
# and numbered references and citations on the largest corpus beside the
# same text written out (bench/refs.py); writes bench/out/report.md. Takes about twenty minutes. BENCH_ARGS: e.g.
# --sizes 1000 --runs 3, --no-images, --images-only.
bench: deps
	@$(MAKE) --no-print-directory folio
	@command -v hugo >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo >/dev/null; } || \
		echo "bench: Hugo is not installed; folio alone is measured"
	@{ python3 -c 'import PIL' || /usr/bin/python3 -c 'import PIL'; } 2>/dev/null || { [ "$$(id -u)" = 0 ] && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pil >/dev/null; } || \
		echo "bench: Pillow (python3-pil) is not installed; no image row"
	@[ -d bench/node_modules/pagefind ] || (cd bench && npm ci --no-audit --no-fund >/dev/null) || \
		echo "bench: Pagefind is not installed (npm ci in bench/); folio's search alone is measured"
	@python3 bench/bench.py --folio ./folio $(BENCH_ARGS)

# Lighthouse on a phone (its mobile defaults) over one page of every type
# of the example blog and of the 1,000-post corpus, the median of 3 runs:
# every category at least 98, CLS 0 (bench/lighthouse/run.sh; Lighthouse
# pinned in bench/lighthouse/package.json, npm ci the first time). Takes
# about ten minutes. RUNS=N, MIN=N change the runs and the bar.
lighthouse: deps
	@$(MAKE) --no-print-directory folio
	@FOLIO=./folio sh bench/lighthouse/run.sh

bench-tmpl: deps
	@$(MAKE) --no-print-directory $(B)/bench_tmpl
	@$(B)/bench_tmpl bench/tmpl

# Build time of each pathological input of tests/pathological/gen.py (1 MiB
# each) against the goal of 0.5 s, median of 3 cold builds, beside the time
# cmark-gfm alone takes for the same Markdown. BENCH_ARGS: e.g. --runs 5.
$(B)/cmark_time: tests/pathological/cmark_time.c | deps/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -o $@ $< $(DEP_PREFIX)/lib/$(MULTIARCH)/libcmark-gfm-extensions.a \
		$(DEP_PREFIX)/lib/$(MULTIARCH)/libcmark-gfm.a

bench-patho: deps
	@$(MAKE) --no-print-directory folio $(B)/cmark_time
	@python3 tests/pathological/measure.py --folio ./folio --cmark $(B)/cmark_time $(BENCH_ARGS)

# The whole test suite under valgrind memcheck (tests/valgrind.sh): the
# unit tests and every folio a test runs, on the release build (-O2 -g),
# with no memory errors and no definite or indirect leaks. Needs valgrind
# (scripts/deps.sh installs it when run as root). Takes about half an
# hour on a 2-core machine (30 minutes of CPU; valgrind runs one thread at
# a time): run by hand, not by CI, whose 30 minutes it would fill alone.
.PHONY: valgrind
valgrind: deps
	@$(MAKE) --no-print-directory folio $(B)/unit_tests
	@sh tests/valgrind.sh folio $(B)/unit_tests

format:
	clang-format -i $(filter src/%,$(SRC)) $(CXX_SRC) $(shell find src tests/unit -name '*.h') $(TEST_SRC)

# make install [PREFIX=/usr/local] [DESTDIR=...]: the binary (self-contained:
# the theme, grammars and KaTeX are in it) and the three man pages, so that
# `man folio` finds them. make uninstall removes them again.
PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
install: folio
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 -s folio $(DESTDIR)$(PREFIX)/bin/folio
	install -m 644 man/folio.1 $(DESTDIR)$(MANDIR)/man1/folio.1
	install -m 644 man/folio-site.5 man/folio-template.5 $(DESTDIR)$(MANDIR)/man5/

# make dist: the release, dist/folio-VERSION-linux-ARCH.tar.gz and its
# .sha256: the stripped binary, the man pages, README.md, INSTALL (the
# shared libraries it still loads) and the licence of everything linked
# in or embedded (scripts/dist.sh, which fails if one is missing).
.PHONY: dist
DIST_DIR ?= dist
dist: folio
	@sh scripts/dist.sh folio $(DIST_DIR)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/folio $(DESTDIR)$(MANDIR)/man1/folio.1 \
		$(DESTDIR)$(MANDIR)/man5/folio-site.5 $(DESTDIR)$(MANDIR)/man5/folio-template.5

# Builds folio and serves the example blog on http://127.0.0.1:8080 (or
# the next free port, which it prints) with folio serve: editing a file of
# examples/techblog/ reloads the open tabs. It installs only what the
# build needs (deps.sh build): the tests' tools (the browser, valgrind)
# come with make test. The build runs a job per core unless make was
# given -j (BUILD_JOBS, as for make test, check, asan and fuzz).
demo:
	@sh scripts/deps.sh build
	@$(MAKE) --no-print-directory $(BUILD_JOBS) folio
	@./folio serve examples/techblog

# ---- fuzz: libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang
# into build/fuzz: folio's objects with ASan, UBSan and the fuzzer's
# coverage. The grammars, the highlight queries and KaTeX (EXTRA_OBJ) are
# the release flavour's objects, not instrumented: generated code and data,
# not folio's, which would take minutes to build again; pikchr, a parser
# of untrusted text, is instrumented (mk/pikchr.mk). `make fuzz
# FUZZ_SECONDS=N` installs clang if it is missing, builds every target,
# replays tests/fuzz/regressions/TARGET/*, then fuzzes each target for N
# seconds (tests/fuzz/run.sh), FUZZ_JOBS=N targets at a time (CI: 2); a
# crash, leak or hang fails it. The fuzz
# build lowers the template engine's step and memory budgets, so that a
# runaway loop ends quickly, and the sizes past which a Markdown document
# is large (mdmem's reserve, prefaulted blocks, counting beside the
# render), so that inputs of a few KiB take those paths.
FUZZ_CC ?= clang
FUZZ_CXX ?= clang++
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_B := build/fuzz
FUZZ_TARGETS := yaml tmpl markdown serve image imgdecode mdcache links toml json import search related fmcache searchpack manifest srccache \
	mathcache mathjax extcache pages uptodate pikchr mermaid bibtex symbol notebook udirdecl deployrecord
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-DTMPL_MAX_STEPS=1000000 -DTMPL_MEMORY_BASE=33554432 -DMDMEM_AHEAD_AFTER=2 -DMDMEM_PREFAULT_MIN=16384
FUZZ_OBJ := $(LIB_SRC:%.c=$(FUZZ_B)/%.o) $(CXX_SRC:%.cpp=$(FUZZ_B)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-run
.PRECIOUS: $(FUZZ_TARGETS:%=$(FUZZ_B)/tests/fuzz/fuzz_%.o) $(FUZZ_OBJ)

$(FUZZ_B)/build/gen/%.o: build/gen/%.c
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) -std=c11 $(WARN) -Wno-overlength-strings -O1 -c $< -o $@

$(FUZZ_B)/%.o: %.c Makefile | deps/.stamp
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) -pthread -c $< -o $@

$(FUZZ_B)/%.o: %.cpp Makefile | deps/.stamp
	$(call progress,CXX,$<)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CXX) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CXX_CPPFLAGS) $(CPPFLAGS) -std=c++17 $(CXXWARN) $(FUZZ_FLAGS) -pthread -c $< -o $@

$(FUZZ_B)/src/md/highlight.o: | deps/.stamp-highlight
$(FUZZ_B)/src/md/math.o: | $(MATH_DIR)/.stamp

# Objects compiled from C sources in deps/ (pikchr: $(B)/deps/...) are
# built per flavour: the fuzz targets link their instrumented copy.
$(FUZZ_B)/fuzz_%: $(FUZZ_B)/tests/fuzz/fuzz_%.o $(FUZZ_OBJ) $(patsubst $(B)/deps/%,$(FUZZ_B)/deps/%,$(EXTRA_OBJ))
	$(call progress_ld,$@)
	$(Q)$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

fuzz:
	@sh scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory $(BUILD_JOBS) fuzz-build
	@$(MAKE) --no-print-directory fuzz-run

fuzz-build: $(FUZZ_BINS)

fuzz-run: $(FUZZ_BINS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_B=$(FUZZ_B) sh tests/fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf build folio dist

# The header dependencies the compiler wrote (DEPFLAGS), of every flavour.
-include $(shell find build -name '*.d' 2>/dev/null)
