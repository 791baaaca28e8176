# test_fulldisk.sh: a full disk during a build gives one clear error naming
# the file, keeps the old site as it was and removes the staging folder;
# the build after space is freed succeeds. folio serve keeps serving its
# last good build. A real full disk is a small tmpfs (mount needs root:
# that part is skipped, with a note, without it); the test hook
# FOLIO_FAIL_WRITE_AFTER=BYTES (a write past BYTES fails with ENOSPC, see
# folio(1), ENVIRONMENT) gives the same everywhere.
. "$(dirname "$0")/lib.sh"

DISK=$TMP/disk
mounted=0
spid=""
cleanup() {
	[ -n "$spid" ] && kill -KILL "$spid" 2>/dev/null
	[ "$mounted" = 1 ] && umount "$DISK" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

manifest() {
	[ -d "$1" ] || { echo none; return; }
	(cd "$1" && find . -type f ! -name .folio-output -print0 | sort -z | xargs -0 -r cksum) | cksum
}
# leftovers DIR: staging folders beside DIR/public (the spare, the next
# build's staging folder, aside)
leftovers() { find "$1" -maxdepth 1 -name '.public.folio-*' ! -name '*.folio-spare' | wc -l; }
set_title() { sed -i "s/^title: .*/title: \"$2\"/" "$1/folio.yml"; }
# the message of a full disk, for the file FILE
full_msg() {
	echo "$1: error: cannot write: No space left on device; the disk is full: free some space and build again (the site already there is kept as it was)"
}

SITE=$TMP/site
cp -r examples/techblog "$SITE"
# other builds of the example leave their caches in it: not on the small disk
rm -rf "$SITE/.folio-cache" "$SITE/public"
set_title "$SITE" "New Title"
run build "$SITE" -o "$TMP/ref-new"
check "the new site builds" test "$rc" -eq 0
new=$(manifest "$TMP/ref-new")
kib=$(du -sk "$TMP/ref-new" | cut -f1)
bytes=$(find "$TMP/ref-new" -type f -exec cat {} + | wc -c)
set_title "$SITE" "Old Title"
run build "$SITE" -o "$TMP/ref-old"
old=$(manifest "$TMP/ref-old")
rm -rf "$TMP/ref-new" "$TMP/ref-old"

# ---- the test hook: a full disk halfway through the new site ----
OUT=$TMP/hook/public
mkdir -p "$TMP/hook"
run build "$SITE" -o "$OUT"
set_title "$SITE" "New Title"
FOLIO_FAIL_WRITE_AFTER=$((bytes / 2)) "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
out=$(cat "$TMP/out") err=$(cat "$TMP/err")
check "hook: the build fails (exit 1)" test "$rc" -eq 1
check "hook: one error, naming a file of the output" test "$(grep -c "^$OUT/.*: error: cannot write: No space left on device" "$TMP/err")" -eq 1
f=$(sed -n "s|^\($OUT/[^:]*\): error: .*|\1|p" "$TMP/err")
check "hook: the message says what to do" contains "$err" "$(full_msg "$f")"
check "hook: the summary counts one error" contains "$err" "folio: 1 error; nothing was written"
check "hook: the old site is kept as it was" test "$(manifest "$OUT")" = "$old"
check "hook: the staging folder is removed" test "$(leftovers "$TMP/hook")" -eq 0
run build "$SITE" -o "$OUT"
check "hook: the next build succeeds" test "$rc" -eq 0
check "hook: and gives the whole new site" test "$(manifest "$OUT")" = "$new"
# a disk full from the start: even the staging folder's marker fails
# (FOLIO_NO_SPARE: a staging folder made anew, not the spare, which has
# its marker)
set_title "$SITE" "Old Title"
FOLIO_NO_SPARE=1 FOLIO_FAIL_WRITE_AFTER=0 "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
err=$(cat "$TMP/err")
check "hook, nothing fits: the build fails (exit 1)" test "$rc" -eq 1
check "hook, nothing fits: the marker is named" contains "$err" \
	"$OUT: error: cannot write the marker of the staging folder $TMP/hook/.public.folio-staging-"
check "hook, nothing fits: the site is kept" test "$(manifest "$OUT")" = "$new"
check "hook, nothing fits: no staging folder is left" test "$(leftovers "$TMP/hook")" -eq 0
# the same with the spare: the first file written fails
FOLIO_FAIL_WRITE_AFTER=0 "$FOLIO" build "$SITE" -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
err=$(cat "$TMP/err")
check "hook, nothing fits, the spare: the build fails (exit 1)" test "$rc" -eq 1
check "hook, nothing fits, the spare: one error, naming a file of the output" \
	test "$(grep -c "^$OUT/.*: error: cannot write: No space left on device" "$TMP/err")" -eq 1
check "hook, nothing fits, the spare: the site is kept" test "$(manifest "$OUT")" = "$new"
check "hook, nothing fits, the spare: no staging folder is left" test "$(leftovers "$TMP/hook")" -eq 0
run build "$SITE" -o "$OUT"
check "hook, nothing fits: the next build gives the whole site" test "$rc" -eq 0 -a "$(manifest "$OUT")" = "$old"

# ---- a real full disk: a tmpfs three times the site's size ----
mkdir -p "$DISK"
if mount -t tmpfs -o size=$((kib * 3 + 256))k tmpfs "$DISK" 2>/dev/null; then
	mounted=1
else
	echo "note: skipped the tmpfs part of the full-disk test: mount is not permitted here (it needs root)"
fi

# fill DIR KIB: a filler file leaving about KIB KiB free on the tmpfs
fill() {
	avail=$(df -k "$DISK" | awk 'NR == 2 { print $4 }')
	[ "$avail" -gt "$1" ] && dd if=/dev/zero of="$DISK/filler" bs=1k count=$((avail - $1)) 2>/dev/null
	true
}

if [ "$mounted" = 1 ]; then
	OUT=$DISK/public
	set_title "$SITE" "Old Title"
	run build "$SITE" -o "$OUT"
	check "tmpfs: the old site fits" test "$rc" -eq 0
	# room for a third of the new site
	fill $((kib / 3))
	set_title "$SITE" "New Title"
	run build "$SITE" -o "$OUT"
	check "tmpfs: a full disk fails the build (exit 1)" test "$rc" -eq 1
	check "tmpfs: one error, naming a file of the output" \
		test "$(echo "$err" | grep -c "^$OUT/.*: error: cannot write: No space left on device")" -eq 1
	f=$(echo "$err" | sed -n "s|^\($OUT/[^:]*\): error: .*|\1|p")
	check "tmpfs: the message says what to do" contains "$err" "$(full_msg "$f")"
	check "tmpfs: the old site is kept as it was" test "$(manifest "$OUT")" = "$old"
	check "tmpfs: the staging folder is removed" test "$(leftovers "$DISK")" -eq 0
	rm -f "$DISK/filler"
	run build "$SITE" -o "$OUT"
	check "tmpfs: with space freed the next build succeeds" test "$rc" -eq 0
	check "tmpfs: and gives the whole new site" test "$(manifest "$OUT")" = "$new"
	check "tmpfs: and leaves no staging folder" test "$(leftovers "$DISK")" -eq 0

	# the site itself on the full disk too: its cache cannot be written
	rm -rf "$OUT"
	cp -r "$SITE" "$DISK/site"
	rm -rf "$DISK/site/.folio-cache"
	set_title "$DISK/site" "Old Title"
	run build "$DISK/site" -o "$OUT"
	check "tmpfs, site on it: the old site fits" test "$rc" -eq 0 -a "$(manifest "$OUT")" = "$old"
	fill $((kib / 3))
	set_title "$DISK/site" "New Title"
	run build "$DISK/site" -o "$OUT"
	check "tmpfs, site on it: the build fails" test "$rc" -eq 1
	check "tmpfs, site on it: the old site is kept" test "$(manifest "$OUT")" = "$old"
	check "tmpfs, site on it: no staging folder is left" test "$(leftovers "$DISK")" -eq 0
	rm -f "$DISK/filler"
	run build "$DISK/site" -o "$OUT"
	check "tmpfs, site on it: the next build gives the new site" test "$rc" -eq 0 -a "$(manifest "$OUT")" = "$new"
	rm -rf "$OUT" "$DISK/site"
fi

# ---- folio serve: its folder (under TMPDIR) on the full disk ----
if [ "$mounted" = 1 ] && command -v curl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	set_title "$SITE" "Old Title"
	post=$SITE/content/posts/gpu-memory-hierarchy.md
	[ -f "$post" ] || post=$(find "$SITE/content/posts" -name '*.md' | sort | head -1)
	slug=$(basename "$post" .md)
	port=$(free_port)
	url=http://127.0.0.1:$port
	TMPDIR=$DISK "$FOLIO" serve "$SITE" --port "$port" >"$TMP/serve.out" 2>"$TMP/serve.err" &
	spid=$!
	up=0
	for _ in $(seq 1 $((100 * ${WAIT_SCALE:-1}))); do
		curl -s -o /dev/null --max-time 1 "$url/" && up=1 && break
		sleep 0.1
	done
	check "serve: the server answers" test "$up" -eq 1
	curl -s --max-time 5 "$url/posts/$slug/" >"$TMP/before.html"
	# wait_err TEXT: until the server's stderr says TEXT (at most 10 s,
	# times WAIT_SCALE: tests/valgrind.sh sets it)
	wait_err() {
		for _ in $(seq 1 $((100 * ${WAIT_SCALE:-1}))); do
			grep -q "$1" "$TMP/serve.err" && return 0
			sleep 0.1
		done
		return 1
	}
	fill 0
	printf '\nFULL-DISK-EDIT in a new paragraph, long enough to need a block of its own.\n' >>"$post"
	set_title "$SITE" "Title On A Full Disk"
	wait_err "still serving the last good build"
	err=$(cat "$TMP/serve.err")
	check "serve: the failed write is reported" contains "$err" "error: cannot write: No space left on device"
	check "serve: it keeps the last good build" contains "$err" "still serving the last good build"
	curl -s --max-time 5 "$url/posts/$slug/" >"$TMP/during.html"
	check "serve: the post is the one of the last good build" cmp -s "$TMP/before.html" "$TMP/during.html"
	r=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url/")
	check "serve: the home page is still served" test "$r" = 200
	n=$(grep -c "rebuilt" "$TMP/serve.err")
	rm -f "$DISK/filler"
	touch "$post"
	for _ in $(seq 1 $((100 * ${WAIT_SCALE:-1}))); do
		[ "$(grep -c "rebuilt" "$TMP/serve.err")" -gt "$n" ] && break
		sleep 0.1
	done
	curl -s --max-time 5 "$url/posts/$slug/" >"$TMP/after.html"
	check "serve: with space freed the edit is served" grep -q "FULL-DISK-EDIT" "$TMP/after.html"
	check "serve: with the new title" grep -q "Title On A Full Disk" "$TMP/after.html"
	kill -TERM "$spid"
	wait "$spid" 2>/dev/null
	spid=""
	check "serve: its folder is removed when it stops" test -z "$(find "$DISK" -mindepth 1 -maxdepth 1 -name 'folio-serve-*')"
elif [ "$mounted" = 1 ]; then
	echo "note: skipped the folio serve part of the full-disk test: curl and python3 are needed"
fi

finish
