# mermaid.mk: what src/md/mermaid.c links with: beautiful-mermaid and dagre
# from deps/mermaid/ (npm packages pinned by scripts/deps-mermaid.sh; dagre
# with one fix, below),
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
MERMAID_MODULES := dagre=build/gen/dagre.js \
	elkjs/lib/elk.bundled.js=src/md/mermaid/elk-dagre.js \
	entities=src/md/mermaid/entities.js \
	beautiful-mermaid=$(MERMAID_DIR)/beautiful-mermaid/beautiful-mermaid.js \
	folio-mermaid=src/md/mermaid/glue.js

EXTRA_OBJ += $(MERMAID_B)/build/gen/mermaid.o
EXTRA_ASAN_OBJ += $(MERMAID_ASAN_B)/build/gen/mermaid.o

$(MERMAID_DIR)/.stamp: scripts/deps-mermaid.sh scripts/npm-pinned.sh | deps/.stamp
	@sh scripts/deps-mermaid.sh && touch $@

# dagre 3.1.4 with one fix: its translateGraph walks every edge's points,
# which an edge between neighbouring ranks has none of (dagre itself never
# makes one: it doubles every edge's length; elk-dagre.js halves it for a
# tree without edge labels). The build stops if the code is not there
# once, as after an upgrade.
build/gen/dagre.js: $(MERMAID_DIR)/.stamp mk/mermaid.mk
	@mkdir -p build/gen
	@test "$$(grep -o -F 'd.points.forEach(c=>{c.x-=n,c.y-=r})' $(MERMAID_DIR)/dagre/dagre.js | wc -l)" = 1 || \
		{ echo "mk/mermaid.mk: dagre's translateGraph is not the one it fixes" >&2; exit 1; }
	@sed 's/d\.points\.forEach(c=>{c\.x-=n,c\.y-=r})/(d.points||[]).forEach(c=>{c.x-=n,c.y-=r})/' \
		$(MERMAID_DIR)/dagre/dagre.js > $@.tmp && mv $@.tmp $@

build/gen/mermaid.c: build/embed-js build/gen/dagre.js $(MERMAID_DIR)/.stamp $(wildcard src/md/mermaid/*.js)
	$(call progress,GEN,$@)
	@mkdir -p build/gen
	$(Q)build/embed-js $@ mermaid_js modules $(MERMAID_MODULES)

# mermaid.c names the versions it is built with (folio --version), the ones
# deps-mermaid.sh pins and checks.
MERMAID_VERSION_FLAGS := -DFOLIO_MERMAID_VERSION='"$(shell sed -n 's/^BEAUTIFUL_MERMAID_VERSION="\([^"]*\)".*/\1/p' scripts/deps-mermaid.sh)"' \
	-DFOLIO_DAGRE_VERSION='"$(shell sed -n 's/^DAGRE_VERSION="\([^"]*\)".*/\1/p' scripts/deps-mermaid.sh)"'
$(MERMAID_B)/src/md/mermaid.o $(MERMAID_ASAN_B)/src/md/mermaid.o build/fuzz/src/md/mermaid.o: CPPFLAGS_ALL += $(MERMAID_VERSION_FLAGS)
$(MERMAID_B)/src/md/mermaid.o $(MERMAID_ASAN_B)/src/md/mermaid.o: scripts/deps-mermaid.sh | $(MATH_DIR)/.stamp
