#!/bin/sh
# deps.sh: bench/dot/diagrams_dot.py's one dependency (not the build's):
# fetches the npm package viz.js at the pinned version,
# checks its sha256, and keeps its full.render.js (Graphviz 2.40.1 and
# Expat 2.2.5 compiled by Emscripten 1.37.36 to asm.js: plain JavaScript,
# no WebAssembly, so it runs in QuickJS) and its licence (MIT, the wrapper's;
# Graphviz itself is under the Eclipse Public License 1.0, Expat under MIT)
# in deps/graphviz/, for the measurement of ```dot diagrams in QuickJS
# (bench/dot/pre.js and glue.js run around it). Idempotent; one line of output per step.
set -eu
cd "$(dirname "$0")/../.."
. scripts/npm-pinned.sh
npm_pinned "Graphviz (viz.js 2.1.2)" viz.js 2.1.2 \
	5cb52fb723c4884cd2e8c25f68ec7c7c99055aa1248599e9e287e3f55d3b2d6b deps/graphviz \
	full.render.js=full.render.js
