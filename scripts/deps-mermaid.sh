#!/bin/sh
# deps-mermaid.sh: what the Mermaid diagrams (src/md/mermaid.c) need,
# idempotently, one line of output per step. Run by deps.sh. Two npm
# packages, pinned by version and sha256 (scripts/npm-pinned.sh), each one
# ES module kept in deps/mermaid/: beautiful-mermaid (Mermaid's text to SVG
# in pure JavaScript) and @dagrejs/dagre (the layered layout folio gives it
# in place of elkjs, through src/md/mermaid/elk-dagre.js). mk/mermaid.mk
# compiles them to bytecode embedded in folio; folio --version names both
# versions (mk/mermaid.mk reads them here).
set -eu
cd "$(dirname "$0")/.."
. scripts/npm-pinned.sh

BEAUTIFUL_MERMAID_VERSION="1.1.3"
BEAUTIFUL_MERMAID_SHA256="4d436f27bb0102985940c3efe317153f4d1f53f20f029f226b60e1ab4b6b9ff0"
DAGRE_VERSION="3.1.4"
DAGRE_SHA256="098e78da09e6ad81593617a07265b167c4a89feb73d991e6ffd7bd2755893191"

npm_pinned "beautiful-mermaid $BEAUTIFUL_MERMAID_VERSION" beautiful-mermaid "$BEAUTIFUL_MERMAID_VERSION" \
	"$BEAUTIFUL_MERMAID_SHA256" deps/mermaid/beautiful-mermaid dist/index.js=beautiful-mermaid.js
npm_pinned "dagre $DAGRE_VERSION" @dagrejs/dagre "$DAGRE_VERSION" "$DAGRE_SHA256" deps/mermaid/dagre \
	dist/dagre.esm.js=dagre.js
