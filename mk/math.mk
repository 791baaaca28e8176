# math.mk: what src/md/math.c links with: QuickJS (its static library) and
# KaTeX from deps/math/ (the Debian 13 packages, fetched by
# scripts/deps-math.sh), xxHash from the system. KaTeX is embedded as
# bytecode in build/gen/katex.c (scripts/embed-js.c), so the installed
# binary needs no other files.
#
# For the Makefile, which includes this file, it adds to
#   EXTRA_OBJ, EXTRA_ASAN_OBJ  the embedded KaTeX, per flavour
#   EXTRA_LIBS                 libquickjs.a, and libxxhash.a (else -lxxhash)
#   EXTRA_CPPFLAGS             QuickJS's include path

# The flavours' folders, in case this is included before they are set.
MATH_B := $(or $(B),build/release)
MATH_ASAN_B := $(or $(ASAN_B),build/asan)

MATH_DIR := deps/math
MATH_KATEX_JS := $(MATH_DIR)/usr/share/javascript/katex/katex.min.js
# KaTeX's mhchem extension (\ce, \pu: chemistry, as Hugo's math and
# MathJax's mhchem take it), compiled into the same bytecode.
MATH_MHCHEM_JS := $(MATH_DIR)/usr/share/javascript/katex/contrib/mhchem.js
# xxHash: the static library when the system has one (Debian's
# libxxhash-dev does), so that the binary does not need libxxhash0.
MATH_XXHASH := $(or $(wildcard $(SYS_LIB)/libxxhash.a),-lxxhash)

EXTRA_OBJ += $(MATH_B)/build/gen/katex.o
EXTRA_ASAN_OBJ += $(MATH_ASAN_B)/build/gen/katex.o
EXTRA_LIBS += $(MATH_DIR)/usr/lib/$(MULTIARCH)/quickjs/libquickjs.a $(MATH_XXHASH)
# -isystem: QuickJS's header is not held to folio's warnings.
EXTRA_CPPFLAGS += -isystem $(MATH_DIR)/usr/include

# The stamp scripts/deps-math.sh writes last (after deps.sh, whose private
# apt configuration it uses; deps.sh runs it too).
$(MATH_DIR)/.stamp: scripts/deps-math.sh | deps/.stamp
	@sh scripts/deps-math.sh && touch $@

# math.c names the versions it is built with (folio --version), the ones
# deps-math.sh pins and checks.
MATH_VERSION_FLAGS := -DFOLIO_QUICKJS_VERSION='"$(shell sed -n 's/^QUICKJS_VERSION="\([^"]*\)".*/\1/p' scripts/deps-math.sh)"' \
	-DFOLIO_KATEX_VERSION='"$(shell sed -n 's/^KATEX_VERSION="\([^"]*\)".*/\1/p' scripts/deps-math.sh)"'
$(MATH_B)/src/md/math.o $(MATH_ASAN_B)/src/md/math.o build/fuzz/src/md/math.o: CPPFLAGS_ALL += $(MATH_VERSION_FLAGS)
$(MATH_B)/src/md/math.o $(MATH_ASAN_B)/src/md/math.o: scripts/deps-math.sh

# math.c includes quickjs/quickjs.h.
$(MATH_B)/src/md/math.o $(MATH_ASAN_B)/src/md/math.o: | $(MATH_DIR)/.stamp

# embed-js compiles JavaScript to bytecode with the QuickJS folio links
# (KaTeX here, Mermaid in mk/mermaid.mk).
build/embed-js: scripts/embed-js.c $(MATH_DIR)/.stamp
	$(call progress,CC,$<)
	@mkdir -p build
	$(Q)$(CC) -O2 -isystem $(MATH_DIR)/usr/include -o $@ $< $(MATH_DIR)/usr/lib/$(MULTIARCH)/quickjs/libquickjs.a -lm -pthread

build/gen/katex.c: build/embed-js $(MATH_DIR)/.stamp
	$(call progress,GEN,$@)
	@mkdir -p build/gen
	$(Q)build/embed-js $@ math_katex script $(MATH_KATEX_JS) $(MATH_MHCHEM_JS)

