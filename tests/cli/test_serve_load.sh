# test_serve_load.sh: folio serve under load for 20 seconds. Debian's wrk
# sends GETs of a post and, at the same time, HEADs of the event stream
# (each one a stream opened and closed), while 16 tabs' worth of event
# streams stay open and the post is edited twice. No request may fail, and
# every open stream must get both reload events. Requests per second and
# the 99th percentile latency are printed as notes (not asserted: these
# machines are shared).
. "$(dirname "$0")/lib.sh"
# WAIT_SCALE (tests/valgrind.sh sets it) multiplies the longest waits
ws=${WAIT_SCALE:-1}

SECONDS_UNDER_LOAD=${LOAD_SECONDS:-20}
spid=""
cleanup() {
	for p in $(cat "$TMP"/bg.pid 2>/dev/null); do kill "$p" 2>/dev/null; done
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if ! command -v wrk >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
	rc=1
	out=""
	err="wrk and curl are needed (scripts/deps.sh installs them)"
	check "wrk and curl are installed" false
	finish
	exit 1
fi

site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
post=gpu-systems-05-coalescing-shared-memory-and-reduction-patterns
mkdir "$TMP/tmp"
serve_start "$site" "$TMP/tmp"
serve_wait
out=""
err=$(cat "$TMP/serve.err")
check "the server answers" test "$up" -eq 1

# the open tabs: event streams read for the whole run
for i in $(seq 1 16); do
	curl -s -N --max-time $((SECONDS_UNDER_LOAD + 15)) "$url/__folio/events" >"$TMP/stream.$i" 2>/dev/null &
	echo $! >>"$TMP/bg.pid"
done
sleep 0.5

wrk -t2 -c32 -d"${SECONDS_UNDER_LOAD}s" --timeout 5s --latency "$url/posts/$post/" >"$TMP/wrk.page" 2>&1 &
w1=$!
cat >"$TMP/head.lua" <<'EOF'
wrk.method = "HEAD"
EOF
wrk -t1 -c8 -d"${SECONDS_UNDER_LOAD}s" --timeout 5s --latency -s "$TMP/head.lua" "$url/__folio/events" \
	>"$TMP/wrk.events" 2>&1 &
w2=$!
# two edits under load: each a rebuild, and a reload event on every stream
sleep $((SECONDS_UNDER_LOAD / 4))
printf '\nA paragraph written under load.\n' >>"$site/content/posts/$post.md"
sleep $((SECONDS_UNDER_LOAD / 3))
printf '\nAnother one.\n' >>"$site/content/posts/$post.md"
wait "$w1"
rc1=$?
wait "$w2"
rc2=$?

# wrk_ok FILE: requests were made, and no socket errors or bad statuses
wrk_ok() {
	grep -qE '^ +[0-9]+ requests in' "$1" && ! grep -qE 'Socket errors|Non-2xx or 3xx' "$1"
}
rc=$rc1
out=$(cat "$TMP/wrk.page")
err=""
check "wrk on a post: every request answered" wrk_ok "$TMP/wrk.page"
rc=$rc2
out=$(cat "$TMP/wrk.events")
check "wrk on the event stream (HEAD): every request answered" wrk_ok "$TMP/wrk.events"
for f in page events; do
	rps=$(awk '/^Requests\/sec:/ { print $2 }' "$TMP/wrk.$f")
	p99=$(awk '$1 == "99%" { print $2 }' "$TMP/wrk.$f")
	echo "note: wrk ($f, ${SECONDS_UNDER_LOAD} s): $rps requests/s, p99 $p99"
done

sleep 1
bad=0
for i in $(seq 1 16); do
	n=$(grep -c '^event: reload' "$TMP/stream.$i")
	[ "$n" -ge 2 ] || bad=$((bad + 1))
done
out=$(head -c 300 "$TMP/stream.1")
err=$(tail -n 5 "$TMP/serve.err")
check "all 16 open streams got both reload events ($bad did not)" test "$bad" -eq 0
body=$(curl -s --max-time 5 "$url/posts/$post/")
check "the page has the edits" contains "$body" "Another one."

kill -TERM "$spid"
wait "$spid"
rc=$?
spid=""
check "the server exits 0 after the load" test "$rc" -eq 0
finish
