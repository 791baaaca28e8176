# math.mk: build inputs of the math module (src/math.c): QuickJS (static)
# and KaTeX from deps/math/ (scripts/deps-math.sh, run by deps.sh), xxHash
# from the system. KaTeX is embedded as build/gen/katex.c, so the installed
# binary needs no other files.

MATH_DIR := deps/math
MATH_KATEX_JS := $(MATH_DIR)/usr/share/javascript/katex/katex.min.js
MATH_QUICKJS_A := $(MATH_DIR)/usr/lib/$(MULTIARCH)/quickjs/libquickjs.a
# xxHash: the static library when the system has one (Debian's
# libxxhash-dev does), so the binary does not need libxxhash0.
MATH_XXHASH := $(or $(wildcard $(SYS_LIB)/libxxhash.a),-lxxhash)

# -isystem: QuickJS's header is not held to folio's warnings.
EXTRA_CPPFLAGS += -isystem $(MATH_DIR)/usr/include
EXTRA_LIBS += $(MATH_QUICKJS_A) $(MATH_XXHASH)
EXTRA_OBJ += $(B)/build/gen/katex.o
EXTRA_ASAN_OBJ += $(ASAN_B)/build/gen/katex.o

$(MATH_DIR)/.stamp:
	@sh scripts/deps.sh

build/embed-katex: scripts/embed-katex.c
	@mkdir -p build
	$(CC) -O2 -o $@ $<

build/gen/katex.c: build/embed-katex $(MATH_DIR)/.stamp
	@mkdir -p build/gen
	build/embed-katex $@ $(MATH_KATEX_JS)

$(B)/src/math.o $(ASAN_B)/src/math.o: | $(MATH_DIR)/.stamp
