# test_serve_rss.sh: folio serve keeps its memory over a long session.
# Serves a copy of the example blog and edits one post 1,000 times (its
# text, with a new formula, every time; its title every tenth time), each
# edit its own rebuild: the next one is made only once the server has
# said the last one is done.
# The server's resident set (VmRSS of /proc/PID/status) after all of them
# must be less than 5% above what it was after a warm-up of 50. Under
# valgrind (FOLIO_VALGRIND set, by `make valgrind`) it is skipped: RSS
# there is valgrind's, and 1,000 rebuilds would take most of an hour.
# RSS_EDITS and RSS_WARMUP change the counts; RSS_LOG=FILE keeps the
# server's log.
. "$(dirname "$0")/lib.sh"

EDITS=${RSS_EDITS:-1000}
WARMUP=${RSS_WARMUP:-50}
# Under ASan (make asan) freed memory waits in a quarantine of 256 MB
# before it is reused: RSS then grows until the quarantine is full, which
# after 50 rebuilds it may not be yet (one run measured 381 MB after 50
# and 406 MB after 1000, the next 412 MB and 414 MB). A small quarantine
# is full within the warm-up, so growth is folio's own. Other builds
# ignore the variable.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"

if [ -n "${FOLIO_VALGRIND:-}" ]; then
	echo "skipped: under valgrind RSS is valgrind's, and $EDITS rebuilds take too long"
	finish
	exit 0
fi

spid=""
cleanup() {
	stop_serve
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -r /proc/self/status ] || ! command -v python3 >/dev/null 2>&1; then
	rc=1
	out=""
	err="/proc and python3 are needed"
	check "/proc and python3 are there" false
	finish
	exit 1
fi

site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
post=$site/content/posts/gpu-systems-05-coalescing-shared-memory-and-reduction-patterns.md
[ -f "$post" ] || post=$(ls "$site"/content/posts/*.md | head -n 1)
mkdir "$TMP/tmp"
serve_start "$site" "$TMP/tmp"

# The edits, from one python3 process (a process per edit and per poll
# would be most of the time): each rewrites the post whole, then waits
# until serve.err has one more "rebuilt" line (or an error). Prints
# "RSS ANON RSS ANON REBUILDS SECONDS" (VmRSS and RssAnon after the
# warm-up, then after all edits, in kB).
python3 - "$spid" "$post" "$TMP/serve.err" "$EDITS" "$WARMUP" >"$TMP/rss" 2>"$TMP/rss.err" <<'PY'
import re, sys, time
pid, post, log, edits, warmup = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
done = re.compile(r"^folio serve: (rebuilt |\d+ errors?;)", re.M)

def rss():
    """VmRSS, and RssAnon (the heap's part, without the binary's pages)"""
    got = {}
    with open("/proc/%s/status" % pid) as f:
        for line in f:
            k = line.split(":")[0]
            if k in ("VmRSS", "RssAnon"):
                got[k] = line.split()[1]
    if "VmRSS" not in got:
        raise SystemExit("no VmRSS for %s" % pid)
    return "%s %s" % (got["VmRSS"], got.get("RssAnon", "?"))

def text():
    with open(log, errors="replace") as f:
        return f.read()

def wait(pred, what, limit=30):
    end = time.time() + limit
    while time.time() < end:
        if pred(text()):
            return
        time.sleep(0.002)
    raise SystemExit("timed out waiting for %s" % what)

wait(lambda t: "serving" in t, "the server")
base = open(post).read()
t0 = time.time()
warm = None
for i in range(1, edits + 1):
    # the same length every time: a new paragraph with a new formula, and
    # every tenth time a new title (which every list of posts shows)
    head = base
    if i % 10 == 0:
        head = base.replace('title: "', 'title: "Rev %06d: ' % i, 1)
    body = head + "\n\nEdit %06d of this post, with $x_{%06d}^2$ in it.\n" % (i, i)
    with open(post, "w") as f:
        f.write(body)
    wait(lambda t: len(done.findall(t)) >= i, "rebuild %d" % i)
    if i == warmup:
        warm = rss()
final = rss()
time.sleep(0.3)  # a rebuild too many would show now
print(warm, final, len(done.findall(text())), "%.1f" % (time.time() - t0))
PY
prc=$?
read -r warm warm_anon final final_anon rebuilds secs <"$TMP/rss" 2>/dev/null
out=$(cat "$TMP/rss")
err="$(cat "$TMP/rss.err") $(tail -n 3 "$TMP/serve.err")"
rc=$prc
check "$EDITS edits were made and rebuilt" test "$prc" -eq 0 -a -n "$final"
if [ "$prc" -eq 0 ] && [ -n "$final" ]; then
	check "each edit was one rebuild ($rebuilds for $EDITS)" test "$rebuilds" -eq "$EDITS"
	check "no rebuild failed" sh -c "! grep -q 'error' '$TMP/serve.err'"
	grep error "$TMP/serve.err" | head -5 >&2
	growth=$(awk -v a="$warm" -v b="$final" 'BEGIN { printf "%.2f", (b - a) * 100 / a }')
	echo "note: VmRSS after $WARMUP rebuilds $warm kB, after $EDITS $final kB ($growth%);" \
		"RssAnon $warm_anon kB, then $final_anon kB; $EDITS rebuilds in $secs s"
	check "RSS grows by less than 5% (after $WARMUP: $warm kB, after $EDITS: $final kB, $growth%)" \
		awk -v a="$warm" -v b="$final" 'BEGIN { exit !(b < a * 1.05) }'
fi

kill -TERM "$spid"
wait "$spid"
rc=$?
spid=""
check "the server exits 0" test "$rc" -eq 0
[ -n "${RSS_LOG:-}" ] && cp "$TMP/serve.err" "$RSS_LOG"
finish
