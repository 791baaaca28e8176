#!/bin/sh
# deps-modelviewer.sh: fetches the npm package @google/model-viewer at the
# pinned version, checks its sha256, and keeps its self-contained module
# (dist/model-viewer.min.js) in deps/modelviewer/, from where the build
# embeds it in folio. Idempotent; one line of output per step.
set -eu
cd "$(dirname "$0")/.."
. scripts/npm-pinned.sh
npm_pinned "model-viewer 4.4.0" @google/model-viewer 4.4.0 \
	8b621bd58da86cfa9908aaedf5a263d49770d08fc9e04ca661e3019616565f02 deps/modelviewer \
	dist/model-viewer.min.js=model-viewer.min.js
