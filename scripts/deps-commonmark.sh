#!/bin/sh
# deps-commonmark.sh: fetches the npm package commonmark-spec at the pinned
# version, checks its sha256, and keeps its spec.txt (the CommonMark spec,
# whose 652 examples tests/unit/test_commonmark.c runs through folio's
# Markdown) in deps/commonmark/. Only the tests use it. Idempotent; one line
# of output per step.
set -eu
cd "$(dirname "$0")/.."
. scripts/npm-pinned.sh
npm_pinned "commonmark-spec 0.31.2" commonmark-spec 0.31.2 \
	588280df96c211f7ce9db0b7943ded34ac4b8ba321e2fdf9c03d188ec0f01fea deps/commonmark spec.txt=spec.txt
