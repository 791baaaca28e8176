# test_serve.sh: folio serve: pages, types, 404, caching, HEAD, hostile
# requests and Host headers refused, rebuild on change with Server-Sent
# Events (reload, error), and a clean exit on SIGTERM.
. "$(dirname "$0")/lib.sh"
# WAIT_SCALE (tests/valgrind.sh sets it) multiplies the longest waits
ws=${WAIT_SCALE:-1}

spid=""
# the server is always stopped, even when a check fails or the test is killed
trap serve_cleanup EXIT
trap 'exit 1' INT TERM
need_curl

run serve --port -1
check "--port -1 is a usage error" test "$rc" -eq 2
run serve --port 65536
check "--port 65536 is a usage error" test "$rc" -eq 2
run serve --port
check "--port without a value is a usage error" test "$rc" -eq 2
run serve --bind localhost --port 1
check "a name for --bind is refused" test "$rc" -eq 2
run serve "$TMP/nosuch" --port 1
check "a missing site folder exits 1" test "$rc" -eq 1
run help serve
check "help serve" contains "$out" "usage: folio serve"

"$FOLIO" new site "$TMP/site" >/dev/null
site=$TMP/site
post=$site/content/posts/why-this-blog.md
serve_start "$site"
serve_wait
out=$(cat "$TMP/serve.out")
err=$(cat "$TMP/serve.err")
check "the server answers" test "$up" -eq 1
check "it says where it serves" contains "$err" "http://127.0.0.1:$port/"
check "nothing is written to the site's public/" test ! -e "$site/public"

# status code and content type of a request: "CODE TYPE"
get() { curl -s -o "$TMP/body" -D "$TMP/head" --max-time 5 -w '%{http_code} %{content_type}' "$@"; }

r=$(get "$url/")
check "/ is 200 text/html; charset=utf-8" test "$r" = "200 text/html; charset=utf-8"
check "/ gets the reload script" grep -q "EventSource('/__folio/events')" "$TMP/body"
check "the script is before </body>" grep -q '^</script>$' "$TMP/body"
r=$(get "$url/posts/why-this-blog/")
check "a post is 200 text/html" test "$r" = "200 text/html; charset=utf-8"
r=$(get "$url/style.css")
check "style.css is text/css; charset=utf-8" test "$r" = "200 text/css; charset=utf-8"
check "CSS gets no script" sh -c "! grep -q EventSource '$TMP/body'"
r=$(get "$url/favicon.svg")
check "an SVG is image/svg+xml" test "$r" = "200 image/svg+xml; charset=utf-8"
r=$(get "$url/feed.xml")
check "feed.xml is application/xml" test "$r" = "200 application/xml; charset=utf-8"
r=$(get "$url/posts/why-this-blog")
check "a folder without / is redirected" test "${r%% *}" = 301
check "to the folder with /" grep -qi '^Location: /posts/why-this-blog/' "$TMP/head"
r=$(get "$url/no/such/page")
check "a missing page is 404" test "$r" = "404 text/html; charset=utf-8"
check "the 404 page is the site's 404.html" grep -q '<html' "$TMP/body"

get "$url/posts/why-this-blog/" >/dev/null
etag=$(grep -i '^ETag:' "$TMP/head" | sed 's/^[^:]*: *//' | tr -d '\r')
lastmod=$(grep -i '^Last-Modified:' "$TMP/head" | sed 's/^[^:]*: *//' | tr -d '\r')
check "an ETag is sent" test -n "$etag"
check "a Last-Modified is sent" test -n "$lastmod"
r=$(get -H "If-None-Match: $etag" "$url/posts/why-this-blog/")
check "If-None-Match gives 304" test "${r%% *}" = 304
r=$(get -H "If-None-Match: \"other\"" "$url/posts/why-this-blog/")
check "another ETag gives 200" test "${r%% *}" = 200
r=$(get -H "If-Modified-Since: $lastmod" "$url/posts/why-this-blog/")
check "If-Modified-Since gives 304" test "${r%% *}" = 304
r=$(get -H "If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT" "$url/posts/why-this-blog/")
check "If-Modified-Since before the page's time gives 200 (the page changed since)" test "${r%% *}" = 200
r=$(get -H "If-Modified-Since: Fri, 01 Jan 2100 00:00:00 GMT" "$url/posts/why-this-blog/")
check "If-Modified-Since after it gives 304" test "${r%% *}" = 304
r=$(get -I "$url/")
check "HEAD is 200 text/html" test "$r" = "200 text/html; charset=utf-8"
check "HEAD has no body" sh -c "! grep -q '<html' '$TMP/body'"
check "HEAD has a Content-Length" grep -qi '^Content-Length: [1-9]' "$TMP/head"
r=$(get -X POST -d x "$url/")
check "POST is 405" test "${r%% *}" = 405

# Host headers: DNS rebinding
for h in evil.example "evil.example:$port" "localhost.evil.example:$port" "127.0.0.1.nip.io:$port" "localhost:1"; do
	r=$(get -H "Host: $h" "$url/")
	check "Host $h is refused" test "${r%% *}" = 403
done
for h in localhost "localhost:$port" "127.0.0.1:$port" "[::1]:$port"; do
	r=$(get -H "Host: $h" "$url/")
	check "Host $h is served" test "${r%% *}" = 200
done

# Hostile targets through curl, which sends them as written.
for t in /../../../../etc/passwd /.. /posts/../../etc/passwd /%2e%2e/%2e%2e/etc/passwd /%2E%2E/etc/passwd \
	/.%2e/etc/passwd /%2e./etc/passwd /..%2f..%2fetc%2fpasswd /%2fetc%2fpasswd /..%5c..%5cetc%5cpasswd \
	/%252e%252e/%252e%252e/etc/passwd /%252fetc /%25 /% /%zz /index.html%00 /index.html%00.css /%00 \
	/a%0d%0aX:y /./index.html //etc/passwd /posts//why-this-blog/ /.folio-output /%2efolio-output \
	/etc/passwd /proc/self/environ; do
	r=$(curl -s --path-as-is -o "$TMP/body" --max-time 5 -w '%{http_code}' "$url$t")
	case "$r" in 400 | 403 | 404) ok=1 ;; *) ok=0 ;; esac
	check "$t is refused ($r)" test "$ok" -eq 1
	check "$t leaks nothing" sh -c "! grep -q 'root:' '$TMP/body'"
done

# Links in the served folder that lead out of it (the folder is under
# TMPDIR; the next rebuild replaces it).
outdir=$(echo "$TMP"/folio-serve-*/site)
check "the site is built under TMPDIR" test -f "$outdir/index.html"
mkdir -p "$TMP/outside"
echo 'root:x:0:0:outside' >"$TMP/outside/passwd"
ln -s "$TMP/outside" "$outdir/leakdir"
ln -s "$TMP/outside/passwd" "$outdir/leak.txt"
ln -s /etc "$outdir/etc"
ln -s style.css "$outdir/same.css"
# a sibling whose path begins with the served folder's own ("site" and
# "site-private"): outside it all the same, not a prefix match
mkdir -p "$outdir-private"
echo 'root:x:0:0:sibling' >"$outdir-private/passwd"
ln -s "$outdir-private" "$outdir/sibling"
ln -s "$outdir-private/passwd" "$outdir/sibling.txt"
for t in /leakdir/passwd /leakdir/ /leak.txt /etc/passwd /etc/hostname /sibling/passwd /sibling.txt; do
	r=$(curl -s --path-as-is -o "$TMP/body" --max-time 5 -w '%{http_code}' "$url$t")
	check "the link $t is refused ($r)" test "$r" = 404
	check "the link $t leaks nothing" sh -c "! grep -q 'root:' '$TMP/body'"
done
r=$(get "$url/same.css")
check "a link inside the site is served" test "$r" = "200 text/css; charset=utf-8"

# Hostile request lines curl would not send: raw sockets.
python3 - "$port" >"$TMP/raw" <<'PY'
import socket, sys
port = int(sys.argv[1])
targets = [
    b"/..\\..\\etc\\passwd", b"/\\etc\\passwd", b"/index.html\\", b"..\\..\\etc\\passwd",
    b"http://127.0.0.1/index.html", b"http://evil.example/", b"https://localhost/", b"//evil.example/x",
    b"*", b"etc/passwd", b"../etc/passwd", b"/../etc/passwd", b"/a\x00b", b"/a\tb",
    b"file:///etc/passwd", b"/%c0%ae%c0%ae/etc/passwd", b"/..;/etc/passwd",
]
for t in targets:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET " + t + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    data = b""
    try:
        while True:
            k = s.recv(65536)
            if not k:
                break
            data += k
    except socket.timeout:
        pass
    s.close()
    code = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "none"
    leak = b"root:" in data
    print(repr(t)[2:-1].replace(" ", "_"), code, "leak" if leak else "clean")
PY
while read -r t code leak; do
	case "$code" in 400 | 403 | 404) ok=1 ;; *) ok=0 ;; esac
	check "raw $t is refused ($code)" test "$ok" -eq 1
	check "raw $t leaks nothing" test "$leak" = clean
done <"$TMP/raw"
check "every raw request was made" test "$(wc -l <"$TMP/raw")" -eq 17
# no Host at all (HTTP/1.0)
r=$(printf 'GET / HTTP/1.0\r\n\r\n' | python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(sys.stdin.buffer.read())
print(s.recv(100).split(b" ")[1].decode())' "$port")
check "a request without Host is refused" test "$r" = 403

# wait_rebuilds N: until the server has said "rebuilt" N times (at most 10 s times ws)
wait_rebuilds() {
	for _ in $(seq 1 $((100 * ws))); do
		[ "$(grep -c "rebuilt" "$TMP/serve.err")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
events "$TMP/sse1"
check "the event stream opens" grep -q "event: hello" "$TMP/sse1"
printf '\nSERVE-EDIT-MARKER in a new paragraph.\n' >>"$post"
wait_for "$TMP/sse1" "event: reload"
check "an edit sends reload" grep -q "event: reload" "$TMP/sse1"
r=$(get "$url/posts/why-this-blog/")
check "the edited post is served" grep -q "SERVE-EDIT-MARKER" "$TMP/body"

# editors' scratch files do not rebuild
n=$(grep -c "rebuilt" "$TMP/serve.err")
for f in .why-this-blog.md.swp why-this-blog.md~ 4913 .#why-this-blog.md; do
	echo x >"$site/content/posts/$f"
	rm -f "$site/content/posts/$f"
done
sleep 0.3
check "editors' scratch files do not rebuild" test "$(grep -c "rebuilt" "$TMP/serve.err")" -eq "$n"
mkdir -p "$site/content/posts/newdir"
wait_rebuilds $((n + 1))
sleep 0.2
check "a new folder rebuilds once" test "$(grep -c "rebuilt" "$TMP/serve.err")" -eq $((n + 1))
n=$(grep -c "rebuilt" "$TMP/serve.err")
printf -- '---\ntitle: "Deep"\ndate: 2024-01-02\n---\nDEEP-MARKER\n' >"$site/content/posts/newdir/deep.md"
wait_rebuilds $((n + 1))
check "a file in a new folder rebuilds" test "$(grep -c "rebuilt" "$TMP/serve.err")" -gt "$n"
rm -rf "$site/content/posts/newdir"

events "$TMP/sse2"
sed -i '1a titel: Oops <b>' "$post"
wait_for "$TMP/sse2" "event: error"
check "a front matter error sends error" grep -q "event: error" "$TMP/sse2"
check "with the diagnostic" grep -q "data: content/posts/why-this-blog.md:2:1: error: unknown front matter key 'titel'" "$TMP/sse2"
check "and on stderr" grep -q "why-this-blog.md:2:1: error: unknown front matter key 'titel'" "$TMP/serve.err"
r=$(get "$url/posts/why-this-blog/")
check "the last good build is still served" test "${r%% *}" = 200
events "$TMP/sse3"
check "a new tab is told about the error" grep -q "event: error" "$TMP/sse3"
sed -i '2d' "$post"
# (on sse3, opened after the error: sse2 may hold a reload from before it)
wait_for "$TMP/sse3" "event: reload"
check "fixing it sends reload" grep -q "event: reload" "$TMP/sse3"

# serve keeps going: with an error, the pages are written all the same and
# the error is sent (and shown over them)
events "$TMP/sse4"
printf '\n![Missing chart](/img/none.png)\n\nKEEPGOING-MARKER\n' >>"$post"
wait_for "$TMP/sse4" "event: error"
check "keep going: the error is sent" grep -q "image '/img/none.png' not found" "$TMP/sse4"
check "keep going: stderr says the pages were written" \
	grep -q "error; the pages that could be built were written anyway" "$TMP/serve.err"
r=$(get "$url/posts/why-this-blog/")
check "keep going: the page is written all the same" grep -q "KEEPGOING-MARKER" "$TMP/body"
check "keep going: the missing image is its alt text in a box" \
	grep -q '<span class="image-error" title="[^"]*">Missing chart</span>' "$TMP/body"
sed -i '/none.png/d; /KEEPGOING-MARKER/d' "$post"
wait_for "$TMP/sse4" "event: reload"
check "keep going: fixing it sends reload" grep -q "event: reload" "$TMP/sse4"

# the link check of a rebuild: after a check that found nothing, a page
# rendered again is checked alone, unless a page lost an id, which may
# break another page's link: then every page is (and the break is told)
events "$TMP/sse5"
printf '\n## Serve anchor\n\nANCHOR-MARKER\n' >>"$post"
printf -- '---\ntitle: "Linker"\ndate: 2024-01-03\n---\nSee [the anchor](/posts/why-this-blog/#serve-anchor).\n' \
	>"$site/content/posts/linker.md"
wait_for "$TMP/sse5" "event: reload"
sleep 0.5
check "links: a link to a new anchor is good" sh -c "! grep -q 'event: error' '$TMP/sse5'"
events "$TMP/sse6"
printf '\nA [dead link](/posts/nowhere-at-all/).\n' >>"$post"
wait_for "$TMP/sse6" "event: error"
check "links: a broken link in the page rendered again" grep -q "broken link '/posts/nowhere-at-all/'" "$TMP/sse6"
sed -i '/nowhere-at-all/d' "$post"
wait_for "$TMP/sse6" "event: reload"
check "links: fixed" grep -q "event: reload" "$TMP/sse6"
events "$TMP/sse7"
printf '\nA line that changes no id.\n' >>"$post"
wait_for "$TMP/sse7" "event: reload"
check "links: an edit that changes no id is clean" sh -c "! grep -q 'event: error' '$TMP/sse7'"
events "$TMP/sse8"
sed -i 's/^## Serve anchor$/## Another name/' "$post"
wait_for "$TMP/sse8" "event: error"
check "links: an id gone breaks another page's link, which is told" \
	grep -q "linker.md:5:.*broken link '/posts/why-this-blog/#serve-anchor'.*has no element with id 'serve-anchor'" "$TMP/sse8"
sed -i 's/^## Another name$/## Serve anchor/' "$post"
wait_for "$TMP/sse8" "event: reload"
check "links: the id back, the error goes" grep -q "event: reload" "$TMP/sse8"

kill -TERM "$spid"
code=none
for _ in $(seq 1 $((50 * ws))); do
	if ! kill -0 "$spid" 2>/dev/null; then
		wait "$spid"
		code=$?
		break
	fi
	sleep 0.1
done
spid=""
out=$(cat "$TMP/serve.out")
err=$(cat "$TMP/serve.err")
check "SIGTERM stops the server with status 0 (got $code)" test "$code" = 0
check "the port is closed" sh -c "! curl -s -o /dev/null --max-time 1 '$url/'"
# ---- a site that is broken from the start ----
B=$TMP/broken
"$FOLIO" new site "$B" >/dev/null
printf 'title: [\n' >>"$B/folio.yml"
TMPDIR=$TMP "$FOLIO" serve "$B" --port 0 >"$TMP/b.out" 2>"$TMP/b.err" &
spid=$!
bport=""
for _ in $(seq 1 $((100 * ws))); do
	bport=$(sed -n 's|.*serving .* on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/b.err")
	[ -n "$bport" ] && break
	sleep 0.1
done
check "--port 0 takes a free port and prints it" test -n "$bport"
check "a broken site says there is no good build yet" grep -q "no good build yet" "$TMP/b.err"
check "... not 'still serving the last good build'" sh -c "! grep -q 'still serving' '$TMP/b.err'"
code=$(curl -s -o "$TMP/b.html" -w '%{http_code}' "http://127.0.0.1:$bport/posts/anything/")
check "every path answers with the errors (503)" test "$code" = 503
check "... showing them" grep -q "folio.yml:.*error" "$TMP/b.html"
check "... with the reload script" grep -q "EventSource" "$TMP/b.html"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$bport/")
check "the home page too" test "$code" = 503
curl -sN --max-time $((10 * ws)) "http://127.0.0.1:$bport/__folio/events" >"$TMP/bsse" &
echo $! >>"$TMP/curl.pid"
wait_for "$TMP/bsse" "event: error"
check "a tab is told the errors" grep -q "event: error" "$TMP/bsse"
sed -i '$d' "$B/folio.yml"
wait_for "$TMP/bsse" "event: reload"
check "once fixed, the tab reloads" grep -q "event: reload" "$TMP/bsse"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$bport/")
check "... to the site" test "$code" = 200
# a port in use is said at once, before any build
start=$(date +%s)
run serve "$B" --port "$bport"
check "a port in use: exit 1" test "$rc" -eq 1
check "... saying so, with the way out" contains "$err" "port $bport: it is in use (hint: --port N, or --port 0 for a free one)"
check "... before building" sh -c "! printf '%s' \"\$1\" | grep -q 'built'" _ "$out$err"
kill -TERM "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
spid=""
# the default port, when in use, gives way to the next free one
if python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 8080))' 2>/dev/null; then
	# the holder says when it holds the port: on a busy machine half a
	# second was not always enough for it to start, and folio took 8080
	rm -f "$TMP/held"
	python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1", 8080)); s.listen(); open(sys.argv[1], "w").close(); time.sleep(30)' "$TMP/held" &
	holder=$!
	for _ in $(seq 1 $((100 * ws))); do
		test -e "$TMP/held" && break
		sleep 0.1
	done
	TMPDIR=$TMP "$FOLIO" serve "$B" >"$TMP/d.out" 2>"$TMP/d.err" &
	spid=$!
	for _ in $(seq 1 $((300 * ws))); do
		grep -q "serving" "$TMP/d.err" && break
		sleep 0.1
	done
	check "the default port in use: the next free one is taken and told" grep -q "port 8080 is in use; took 80[0-9][0-9]" "$TMP/d.err"
	kill -TERM "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=""
	kill "$holder" 2>/dev/null
fi

# Ctrl-C (SIGINT) while the first build runs stops that build where it is,
# instead of waiting for it: no page served, the temporary folder gone,
# and the site's cache still right (the next build's site is a clean
# build's). The site is big enough for its build to outlast the wait.
big=$TMP/big
"$FOLIO" new site "$big" >/dev/null
python3 - "$big" <<'PY'
import sys
root = sys.argv[1]
para = " ".join(["The kernel reads each tile once, then the warp reduces it in registers."] * 12)
for i in range(4000):
    with open(f"{root}/content/posts/generated-{i:04d}.md", "w") as f:
        f.write(f"---\ntitle: Generated post {i}\ndate: 2024-01-{1 + i % 28:02d}\ntags: [t{i % 50}, gpu]\n---\n\n")
        for k in range(6):
            f.write(f"## Part {k}\n\n{para}\n\n- one `{i}`\n- two\n\n")
PY
mkdir -p "$TMP/serve-tmp"
TMPDIR=$TMP/serve-tmp "$FOLIO" serve "$big" --port "$(free_port)" >"$TMP/c.out" 2>"$TMP/c.err" &
spid=$!
# once the build writes its folder (the signals are taken by then)
for _ in $(seq 1 $((200 * ws))); do
	ls -d "$TMP"/serve-tmp/folio-serve-*/site >/dev/null 2>&1 && break
	sleep 0.05
done
sleep 0.1
kill -INT "$spid"
wait "$spid"
crc=$?
spid=""
check "Ctrl-C during the first build: exit 0" test "$crc" -eq 0
check "... saying it stops" grep -q "folio serve: stopping" "$TMP/c.err"
check "... without finishing the build" sh -c "! grep -q 'built in\|serving' '$TMP/c.err'"
check "... its temporary folder removed" test -z "$(ls -A "$TMP/serve-tmp")"
"$FOLIO" build "$big" -o "$TMP/big-after" >/dev/null 2>&1
rm -rf "$big/.folio-cache"
"$FOLIO" build "$big" -o "$TMP/big-clean" >/dev/null 2>&1
check "... and the next build is a clean build's" diff -r "$TMP/big-after" "$TMP/big-clean"

finish
