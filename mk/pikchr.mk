# pikchr.mk: what src/md/diagram.c links with: pikchr, one C file, from
# deps/pikchr/ (Debian 13's librust-pikchr-dev, the Rust crate that vendors
# it, fetched by scripts/deps-pikchr.sh). It is compiled per flavour (the
# fuzz flavour's copy instrumented, so that the fuzzer sees its branches),
# without folio's warnings: it is not folio's code, and is taken as it is.
#
# For the Makefile, which includes this file, it adds to
#   EXTRA_OBJ, EXTRA_ASAN_OBJ  pikchr's object, per flavour (the fuzz
#                              flavour links $(FUZZ_B)/deps/... in place of
#                              the release's $(B)/deps/...)
#   EXTRA_CPPFLAGS             nothing: diagram.c declares pikchr() itself
#                              (the crate ships no header)

PIKCHR_B := $(or $(B),build/release)
PIKCHR_ASAN_B := $(or $(ASAN_B),build/asan)
PIKCHR_FUZZ_B := $(or $(FUZZ_B),build/fuzz)

PIKCHR_DIR := deps/pikchr
PIKCHR_VERSION := $(shell sed -n 's/^PIKCHR_VERSION="\([^"]*\)".*/\1/p' scripts/deps-pikchr.sh)
PIKCHR_SHA := $(shell sed -n 's/^PIKCHR_C_SHA256="\([^"]*\)".*/\1/p' scripts/deps-pikchr.sh)
PIKCHR_SRC := $(PIKCHR_DIR)/usr/share/cargo/registry/pikchr-$(PIKCHR_VERSION)/src/pikchr.c

EXTRA_OBJ += $(PIKCHR_B)/deps/pikchr/pikchr.o
EXTRA_ASAN_OBJ += $(PIKCHR_ASAN_B)/deps/pikchr/pikchr.o

# PIKCHR_TOKEN_LIMIT: the tokens one diagram may read, macro expansions
# included (pikchr's default is 100,000). pikchr's run time grows with the
# square of the variables and named objects a drawing defines (each is
# looked up in a list): 6,000 variables took 0.24 s under the default
# limit; at 10,000 tokens the worst drawing takes some 0.05 s, and a real
# drawing of a hundred objects reads about a thousand tokens (see
# src/md/diagram.h).
PIKCHR_FLAGS := -std=c11 -w -DPIKCHR_TOKEN_LIMIT=10000

# The stamp scripts/deps-pikchr.sh writes last (after deps.sh, whose
# private apt configuration it uses; deps.sh runs it too).
$(PIKCHR_DIR)/.stamp: scripts/deps-pikchr.sh | deps/.stamp
	@sh scripts/deps-pikchr.sh && touch $@

# The objects depend on the stamp, not on pikchr.c: the file keeps the
# package's date (2006), and a new copy comes with a new stamp.
$(PIKCHR_B)/deps/pikchr/pikchr.o: $(PIKCHR_DIR)/.stamp mk/pikchr.mk
	$(call progress,CC,deps/pikchr/.../pikchr.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(PIKCHR_FLAGS) $(CFLAGS) -c $(PIKCHR_SRC) -o $@

$(PIKCHR_ASAN_B)/deps/pikchr/pikchr.o: $(PIKCHR_DIR)/.stamp mk/pikchr.mk
	$(call progress,CC,deps/pikchr/.../pikchr.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(PIKCHR_FLAGS) $(ASAN_FLAGS) -c $(PIKCHR_SRC) -o $@

$(PIKCHR_FUZZ_B)/deps/pikchr/pikchr.o: $(PIKCHR_DIR)/.stamp mk/pikchr.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(PIKCHR_FLAGS) $(FUZZ_FLAGS) -c $(PIKCHR_SRC) -o $@

# diagram.c names the version it is built with (folio --version), the one
# deps-pikchr.sh pins and checks.
PIKCHR_VERSION_FLAGS := -DFOLIO_PIKCHR_VERSION='"$(PIKCHR_VERSION) (pikchr.c sha256 $(shell echo $(PIKCHR_SHA) | cut -c1-12))"'
$(PIKCHR_B)/src/md/diagram.o $(PIKCHR_ASAN_B)/src/md/diagram.o $(PIKCHR_FUZZ_B)/src/md/diagram.o: CPPFLAGS_ALL += $(PIKCHR_VERSION_FLAGS)
$(PIKCHR_B)/src/md/diagram.o $(PIKCHR_ASAN_B)/src/md/diagram.o $(PIKCHR_FUZZ_B)/src/md/diagram.o: scripts/deps-pikchr.sh
