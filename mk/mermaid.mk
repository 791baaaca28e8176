# mermaid.mk: what src/md/mermaid.c links with: beautiful-mermaid and dagre
# from deps/mermaid/ (npm packages pinned by scripts/deps-mermaid.sh),
# folio's stand-ins for elkjs and entities and its glue (src/md/mermaid/),
# compiled to QuickJS module bytecode in build/gen/mermaid.c by
# scripts/embed-js.c (mk/math.mk builds it), so the installed binary needs
# no other files. QuickJS itself comes with mk/math.mk.
#
# For the Makefile, which includes this file (after mk/math.mk), it adds to
#   EXTRA_OBJ, EXTRA_ASAN_OBJ  the embedded modules, per flavour

MERMAID_B := $(or $(B),build/release)
MERMAID_ASAN_B := $(or $(ASAN_B),build/asan)

MERMAID_DIR := deps/mermaid
# NAME=FILE, in the order they are read; the glue last (mermaid.c
# evaluates it, which links the others by these names)
MERMAID_MODULES := dagre=$(MERMAID_DIR)/dagre/dagre.js \
	elkjs/lib/elk.bundled.js=src/md/mermaid/elk-dagre.js \
	entities=src/md/mermaid/entities.js \
	beautiful-mermaid=$(MERMAID_DIR)/beautiful-mermaid/beautiful-mermaid.js \
	folio-mermaid=src/md/mermaid/glue.js

EXTRA_OBJ += $(MERMAID_B)/build/gen/mermaid.o
EXTRA_ASAN_OBJ += $(MERMAID_ASAN_B)/build/gen/mermaid.o

$(MERMAID_DIR)/.stamp: scripts/deps-mermaid.sh scripts/npm-pinned.sh
	@sh scripts/deps-mermaid.sh && touch $@

build/gen/mermaid.c: build/embed-js $(MERMAID_DIR)/.stamp $(wildcard src/md/mermaid/*.js)
	@mkdir -p build/gen
	build/embed-js $@ mermaid_js modules $(MERMAID_MODULES)

# mermaid.c names the versions it is built with (folio --version), the ones
# deps-mermaid.sh pins and checks.
MERMAID_VERSION_FLAGS := -DFOLIO_MERMAID_VERSION='"$(shell sed -n 's/^BEAUTIFUL_MERMAID_VERSION="\([^"]*\)".*/\1/p' scripts/deps-mermaid.sh)"' \
	-DFOLIO_DAGRE_VERSION='"$(shell sed -n 's/^DAGRE_VERSION="\([^"]*\)".*/\1/p' scripts/deps-mermaid.sh)"'
$(MERMAID_B)/src/md/mermaid.o $(MERMAID_ASAN_B)/src/md/mermaid.o build/fuzz/src/md/mermaid.o: CPPFLAGS_ALL += $(MERMAID_VERSION_FLAGS)
$(MERMAID_B)/src/md/mermaid.o $(MERMAID_ASAN_B)/src/md/mermaid.o: scripts/deps-mermaid.sh | $(MATH_DIR)/.stamp
