# test_browser.sh: the example blog in a real browser. Builds
# examples/techblog into $TMP, serves it on a free loopback port with
# python3's http.server, and runs tests/browser/media.mjs (playwright-core
# driving Debian's chromium) and tests/browser/theme.mjs (axe-core, overflow,
# the theme's promises, screenshots of every page type) against it, and the
# Nu HTML checker (vnu-jar, with Java) over every page; then serves the copy with
# `folio serve` and runs tests/browser/reload.mjs (an edit on disk reloads
# the tab; an error shows the overlay). Servers are stopped at the end,
# also on failure. Screenshots go to $TEST_OUTPUT (default
# tests/browser/out). Needs node, chromium and tests/browser/node_modules
# (scripts/deps-browser.sh installs them): without them the suite fails on
# CI (CI=true) and is skipped elsewhere.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21, as the other tests use
browser_env
trap 'stop_server; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP

# ---- what the browser test needs ----

need_browser

# ---- the site, built and served ----

cp -r examples/techblog "$TMP/techblog"
rm -rf "$TMP/techblog/.folio-cache" "$TMP/techblog/public"
run build "$TMP/techblog" -o "$TMP/site"
check "the example blog builds" test "$rc" -eq 0
if [ "$rc" -ne 0 ]; then
	finish
	exit 1
fi

# serving PORT: whether the server answers on PORT (within 10 seconds).
serving() {
	python3 - "$1" <<'EOF'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen("http://127.0.0.1:%s/" % sys.argv[1], timeout=1).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(1)
EOF
}

# start_server LOG CMD...: runs CMD with a free port appended until it
# answers (another program may take the port between free_port and the
# bind: then another); sets $port ("" if it never answered) and $server.
start_server() {
	log=$1
	shift
	port=""
	for _ in 1 2 3; do
		p=$(free_port)
		"$@" "$p" >"$log" 2>&1 &
		server=$!
		if serving "$p"; then
			port=$p
			return
		fi
		stop_server
	done
}

start_server "$TMP/http.log" python3 -m http.server --bind 127.0.0.1 --directory "$TMP/site"
out=""
err=$(cat "$TMP/http.log" 2>/dev/null)
check "the site is served on a loopback port" test -n "$port"
if [ -z "$port" ]; then
	finish
	exit 1
fi

# ---- the browser ----

# browse SCRIPT: runs tests/browser/SCRIPT (its environment set by the
# caller) and adds its counts. Each script stops itself; timeout(1) is a
# last resort.
browse() {
	timeout 240 node "tests/browser/$1" >"$TMP/browser.out" 2>&1
	node_rc=$?
	grep -v '^ok ' "$TMP/browser.out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$TMP/browser.out" | tail -n 1)
	f=""
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
		pass=$((pass + p))
		fail=$((fail + f))
		echo "browser ($1): $line; screenshots in $TEST_OUTPUT"
	fi
	rc=$node_rc
	out=$(tail -n 5 "$TMP/browser.out")
	err=""
	check "$1 ends with its counts" test -n "$line"
	check "$1 exits 0 when nothing failed" test "$node_rc" -eq 0 -o "${f:-1}" -ne 0
}

BASE_URL=http://127.0.0.1:$port browse media.mjs
BASE_URL=http://127.0.0.1:$port browse theme.mjs
stop_server

# ---- an image-heavy post: what a reader downloads (issue 38) ----

MK="python3 tests/cli/mkimages.py"
P=$TMP/photos
mkdir -p "$P/content/posts" "$P/static/img"
printf 'title: Photos\nbase_url: https://example.org/\n' >"$P/folio.yml"
{
	printf -- '---\ntitle: A walk in pictures\ndate: 2026-01-02\n---\n'
	for i in 1 2; do
		$MK photo "$TMP/p$i.ppm" 1600 1067 && cjpeg -quality 88 "$TMP/p$i.ppm" >"$P/static/img/photo$i.jpg"
		printf 'A paragraph before photograph %s.\n\n![Photograph %s](/img/photo%s.jpg)\n\n' "$i" "$i" "$i"
		$MK png "$P/static/img/shot$i.png" 1400 900
		printf 'A screenshot.\n\n![Screenshot %s](/img/shot%s.png)\n\n' "$i" "$i"
	done
} >"$P/content/posts/photos.md"
run build "$P" -o "$TMP/photos-site"
check "an image-heavy post builds" test "$rc" -eq 0
orig=$(cat "$P"/static/img/* | wc -c)
start_server "$TMP/http2.log" python3 -m http.server --bind 127.0.0.1 --directory "$TMP/photos-site"
if [ -n "$port" ]; then
	BASE_URL=http://127.0.0.1:$port POST_PATH=/posts/photos/ ORIG_BYTES=$orig browse images.mjs
fi
stop_server

# ---- the Nu HTML checker over every page ----

vnu=tests/browser/node_modules/vnu-jar/build/dist/vnu.jar
if [ -f "$vnu" ] && command -v java >/dev/null 2>&1; then
	pages=$(find "$TMP/site" -name '*.html' | wc -l)
	timeout 300 java -Xss4m -jar "$vnu" --errors-only --skip-non-html "$TMP/site" >"$TMP/vnu.out" 2>&1
	vnu_rc=$?
	rc=$vnu_rc
	out=$(head -n 20 "$TMP/vnu.out")
	err=""
	echo "vnu: $pages pages, $(grep -c 'error:' "$TMP/vnu.out") errors"
	check "the Nu HTML checker finds no error in the $pages pages of the example" test "$vnu_rc" -eq 0
elif [ "${CI:-}" = true ]; then
	rc=1 out="" err="no $vnu or no java (scripts/deps-browser.sh installs them)"
	check "the Nu HTML checker is there" false
else
	echo "skipped: the Nu HTML checker (no $vnu or no java)"
fi

# ---- live reload through folio serve ----

mkdir "$TMP/serve-tmp"
post=gpu-systems-05-coalescing-shared-memory-and-reduction-patterns
start_server "$TMP/serve.log" env TMPDIR="$TMP/serve-tmp" "$FOLIO" serve "$TMP/techblog" --port
out=""
err=$(cat "$TMP/serve.log" 2>/dev/null)
check "folio serve serves the example blog" test -n "$port"
if [ -n "$port" ]; then
	BASE_URL=http://127.0.0.1:$port POST_FILE=$TMP/techblog/content/posts/$post.md POST_PATH=/posts/$post/ \
		browse reload.mjs
fi
stop_server
finish
