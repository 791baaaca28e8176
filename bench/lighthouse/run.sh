#!/bin/sh
# run.sh: Lighthouse on a phone over one page of every type of the example
# blog and of the 1,000-post corpus (../shared/bench/gen_corpus.py, as
# bench.py makes it; tests/weight/gen_site.py where it is not at hand),
# the median of RUNS (3) runs each (run.mjs): every category at least MIN
# (98), CLS 0. Builds both into a temporary folder, serves them with
# python3's http.server on loopback ports, installs Lighthouse (npm ci in
# bench/lighthouse) the first time. Run by `make lighthouse`; takes about
# ten minutes on two cores. FOLIO: the binary (./folio).
set -eu
cd "$(dirname "$0")/../.."
FOLIO=${FOLIO:-./folio}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

[ -d bench/lighthouse/node_modules/lighthouse ] ||
	(cd bench/lighthouse && npm ci --no-audit --no-fund --ignore-scripts >/dev/null)

export SOURCE_DATE_EPOCH=1790000000 # the date the tests use: the example's posts all published
"$FOLIO" build examples/techblog -o "$tmp/example" >/dev/null
gen=../shared/bench/gen_corpus.py
if [ -f "$gen" ]; then
	python3 "$gen" --posts 1000 --seed 1 --out "$tmp/c1000" >/dev/null
else
	python3 tests/weight/gen_site.py --posts 1000 --seed 1 --out "$tmp/c1000" >/dev/null
fi
"$FOLIO" build "$tmp/c1000" -o "$tmp/corpus" >/dev/null 2>&1 || "$FOLIO" build "$tmp/c1000" -o "$tmp/corpus"

# serve DIR: serves DIR on a free loopback port, sets $url
serve() {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server --bind 127.0.0.1 --directory "$1" "$port" >/dev/null 2>&1 &
	pids="$pids $!"
	url=http://127.0.0.1:$port
	python3 - "$url" <<'EOF'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(sys.argv[1] + "/", timeout=1).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(1)
EOF
}

# first DIR PATTERN: the first folder under DIR matching PATTERN (not a
# paginated list's page/), as a path
first() {
	(cd "$1" && ls -d $2/ 2>/dev/null | grep -v '/page/$' | head -n 1 | sed 's|^|/|')
}
# with_math DIR: a post of DIR with a display formula, or else with one in the text
with_math() {
	(cd "$1" && { grep -l 'class="math display' posts/*/index.html || grep -l 'class="math' posts/*/index.html; } |
		head -n 1 | sed 's|^|/|; s|index.html$||')
}

serve "$tmp/example"
example=$url
serve "$tmp/corpus"
corpus=$url
c=$tmp/corpus
node bench/lighthouse/run.mjs example "$example" / /page/2/ \
	/posts/gpu-systems-08-profiling-and-the-roofline-view/ \
	/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/ \
	"$(with_math "$tmp/example")" /series/gpu-systems/ /series/ /archive/ /archive/2026/ \
	/tags/ /tags/gpu/ /categories/ /categories/gpu-architecture/ /about/ /start-here/ /best-of/ /search/ /404.html \
	-- corpus "$corpus" / /page/2/ "$(first "$c" 'posts/*')" "$(with_math "$c")" "$(first "$c" 'series/*')" \
	/series/ /archive/ "$(first "$c" 'archive/2*')" /tags/ "$(first "$c" 'tags/*')" /categories/ \
	"$(first "$c" 'categories/*')" /about/ /start-here/ /search/ /404.html
