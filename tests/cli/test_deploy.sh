# test_deploy.sh: folio deploy end to end, for each target: a folder,
# rsync to a local folder and over SSH (an sshd of the test's own on a
# free loopback port, with a throwaway key), and a git branch. For each:
# the first deploy uploads every file; an edit uploads exactly the files
# whose bytes changed; a deleted post is deleted there; a file put there
# by hand is never deleted; --dry-run lists each action and changes
# nothing; a failure midway (a folder in a file's place, a stopped sshd, a
# push the repository refuses) stops with an error and a hint, loses
# nothing, and the next deploy does the rest; no secret is ever printed.
. "$(dirname "$0")/lib.sh"

SITE=$TMP/site
"$FOLIO" new site "$SITE" >/dev/null || { echo "FAIL folio new site"; echo "0 passed, 1 failed"; exit 1; }
cp "$SITE/folio.yml" "$TMP/folio.yml.orig"
# the post deleted below is no best_of: the site still builds without it
sed -i 's/^  - post: why-this-blog$/  - post: first-steps-1-the-plan/' "$TMP/folio.yml.orig"
cp "$TMP/folio.yml.orig" "$SITE/folio.yml"
PUB=$SITE/public

# target KEY VALUE...: folio.yml's deploy: set to that (YAML lines)
target() {
	cp "$TMP/folio.yml.orig" "$SITE/folio.yml"
	printf 'deploy:\n' >>"$SITE/folio.yml"
	for l in "$@"; do printf '  %s\n' "$l" >>"$SITE/folio.yml"; done
}
# snap DIR: "CRC SIZE ./PATH" of every file below DIR but folio's marker
snap() { (cd "$1" && find . -type f ! -name .folio-output ! -path './.git/*' -print0 | sort -z | xargs -0 -r cksum); }
# changed OLD NEW: how many files of snapshot NEW are new or differ from OLD
changed() { awk 'NR == FNR { s[$3] = $1 " " $2; next } s[$3] != $1 " " $2 { n++ } END { print n + 0 }' "$1" "$2"; }
# gone OLD NEW: how many files of OLD are not in NEW
gone() { awk 'NR == FNR { s[$3] = 1; next } !($3 in s) { n++ } END { print n + 0 }' "$2" "$1"; }
# holds DIR: every file of the output is in DIR with its bytes
holds() { snap "$PUB" >"$TMP/h.pub"; snap "$1" >"$TMP/h.dst"; [ "$(changed "$TMP/h.dst" "$TMP/h.pub")" -eq 0 ]; }
nfiles() { snap "$PUB" | wc -l; }
build() { "$FOLIO" build "$SITE" >/dev/null 2>&1 || echo "FAIL: the site does not build"; }
# edit: one post's text changed, rebuilt; sets $want (files changed) and
# $gone (files gone: the search index's shards are named by their bytes)
edit() {
	snap "$PUB" >"$TMP/before"
	echo "A line added at $1." >>"$SITE/content/posts/first-steps-3-publishing.md"
	build
	snap "$PUB" >"$TMP/after"
	want=$(changed "$TMP/before" "$TMP/after")
	gone=$(gone "$TMP/before" "$TMP/after")
}
# drop: a post deleted, rebuilt; sets $want (changed) and $gone (deleted)
drop() {
	snap "$PUB" >"$TMP/before"
	rm -f "$SITE/content/posts/$1.md"
	build
	snap "$PUB" >"$TMP/after"
	want=$(changed "$TMP/before" "$TMP/after")
	gone=$(gone "$TMP/before" "$TMP/after")
}
restore() { cp -r "$TMP/content.orig/." "$SITE/content/"; }
cp -r "$SITE/content" "$TMP/content.orig"
summary() { echo "deploy: $1 uploaded, $2 deleted, $3 unchanged ($4)"; }

# ---- usage and the errors before anything is done ----
run deploy --help
check "--help: exit 0" test "$rc" -eq 0
check "--help: the usage" contains "$out" "usage: folio deploy [DIR] [-o OUT] [--dry-run] [--all]"
run deploy "$SITE" --dry-rn
check "an unknown option: exit 2" test "$rc" -eq 2
check "an unknown option: did you mean" contains "$err" "unknown option '--dry-rn' (did you mean '--dry-run'?)"
run deploy "$SITE"
check "no target: exit 1" test "$rc" -eq 1
check "no target: said, with a hint" contains "$err" "folio.yml: error: no deploy target (hint: add one, as deploy: {folder: /srv/www/blog}"
target "foldr: $TMP/www"
run deploy "$SITE"
check "a mistyped key: exit 1" test "$rc" -eq 1
check "a mistyped key: its place and did you mean" contains "$err" "folio.yml:$(($(wc -l <"$TMP/folio.yml.orig") + 2)):3: error: unknown deploy key 'foldr' (did you mean 'folder'?)"
run build "$SITE"
check "a mistyped key: folio build says it too" test "$rc" -eq 1
target "git: \"https://me:hunter2-secret@example.org/me/site.git\""
run deploy "$SITE"
check "a password in folio.yml: refused" contains "$err" "error: deploy.git's repository holds a password or token (USER:SECRET@): keep credentials out of folio.yml"
check "a password in folio.yml: never printed" not_contains "$out$err" "hunter2"
target "folder: $TMP/www"
run deploy "$SITE"
check "no build: exit 1" test "$rc" -eq 1
check "no build: said, with a hint" contains "$err" "$PUB: error: no site built here (hint: run 'folio build' first"
check "no build: no folder made" test ! -e "$TMP/www"
build
echo "by hand" >"$PUB/extra.txt"
run deploy "$SITE"
check "an output changed since its build: refused" contains "$err" "$PUB: error: the output folder is not as folio build left it"
rm "$PUB/extra.txt"
target "folder: $PUB/sub"
run deploy "$SITE"
check "a folder inside the output: refused" contains "$err" "is the output folder, or inside it, or holds it"

# ---- a folder ----
WWW=$TMP/www
target "folder: ../www"
n=$(nfiles)
run deploy "$SITE" --dry-run
check "folder, dry run: exit 0" test "$rc" -eq 0
check "folder, dry run: each upload listed" test "$(printf '%s\n' "$out" | grep -c '^upload ')" -eq "$n"
check "folder, dry run: the summary" contains "$out" "deploy (dry run, nothing done): $n to upload, 0 to delete, 0 unchanged (folder $WWW)"
check "folder, dry run: nothing made" test ! -e "$WWW"
run deploy "$SITE"
check "folder, first: exit 0" test "$rc" -eq 0
check "folder, first: every file" test "$out" = "$(summary "$n" 0 0 "folder $WWW")"
check "folder, first: the target holds the site" holds "$WWW"
check "folder, first: not folio's marker" test ! -e "$WWW/.folio-output"
run deploy "$SITE"
check "folder, again: nothing to do" test "$out" = "$(summary 0 0 "$n" "folder $WWW")"
# by hand: a file and a folder that folio never put there
echo "mine" >"$WWW/hand.txt"
mkdir -p "$WWW/posts/by-hand" && echo "mine" >"$WWW/posts/by-hand/index.html"
edit one
check "folio edit: some files changed" test "$want" -gt 0
snap "$WWW" >"$TMP/www.before"
run deploy "$SITE" -n
check "folder, dry run of an edit: exactly the changed files listed" test "$(printf '%s\n' "$out" | grep -c '^upload ')" -eq "$want"
check "folder, dry run of an edit: changes nothing" test "$(snap "$WWW")" = "$(cat "$TMP/www.before")"
run deploy "$SITE"
check "folder, an edit: exactly the changed files uploaded" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "folder $WWW")"
check "folder, an edit: the target holds the site" holds "$WWW"
drop why-this-blog
check "a post deleted: files gone" test "$gone" -gt 0
run deploy "$SITE"
check "folder, a deleted post: deleted there" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "folder $WWW")"
check "folder, a deleted post: its page gone" test ! -e "$WWW/posts/why-this-blog/index.html"
check "folder, a deleted post: its folder gone" test ! -e "$WWW/posts/why-this-blog"
check "folder: the file put by hand stays" test "$(cat "$WWW/hand.txt")" = mine
check "folder: the folder put by hand stays" test "$(cat "$WWW/posts/by-hand/index.html")" = mine
check "folder: the target holds the site" holds "$WWW"
# a failure midway: a folder stands where a changed page goes
edit two
rm "$WWW/posts/first-steps-3-publishing/index.html"
mkdir "$WWW/posts/first-steps-3-publishing/index.html" && echo x >"$WWW/posts/first-steps-3-publishing/index.html/f"
snap "$WWW" >"$TMP/www.before"
run deploy "$SITE"
check "folder, failure: exit 1" test "$rc" -eq 1
check "folder, failure: the error and its hint" contains "$err" "$WWW/posts/first-steps-3-publishing/index.html: error: cannot copy the site's file to it: Is a directory (hint: a folder stands there, which folio did not put there: move it away)"
done1=$(printf '%s\n' "$err" | sed -n 's/^folio: deploy stopped after \([0-9]*\) of \([0-9]*\) uploads.*/\1/p')
check "folder, failure: says how far it went" test -n "$done1" -a "${done1:-0}" -lt "$want"
snap "$WWW" >"$TMP/www.after"
check "folder, failure: nothing else lost" test "$(gone "$TMP/www.before" "$TMP/www.after")" -eq 0
check "folder, failure: the folder in the way untouched" test -f "$WWW/posts/first-steps-3-publishing/index.html/f"
rm -r "$WWW/posts/first-steps-3-publishing/index.html"
run deploy "$SITE"
check "folder, after the failure: the rest uploaded" test "$out" = "$(summary $((want - ${done1:-0})) "$gone" $(($(nfiles) - want + ${done1:-0})) "folder $WWW")"
check "folder, after the failure: the target holds the site" holds "$WWW"
check "folder, after the failure: the hand's file stays" test -f "$WWW/hand.txt"
run deploy "$SITE" --all
check "folder, --all: every file again" test "$out" = "$(summary "$(nfiles)" 0 0 "folder $WWW")"
restore
build

# rsync, and an sshd for the SSH part below, installed first where they
# can be (as root with apt-get): a fresh machine has neither
SSHD=/usr/sbin/sshd
if { ! command -v rsync >/dev/null 2>&1 || [ ! -x "$SSHD" ]; } && [ "$(id -u)" -eq 0 ] &&
	command -v apt-get >/dev/null 2>&1; then
	apt-get install -y openssh-server rsync >/dev/null 2>&1
fi

# ---- rsync to a local folder ----
if command -v rsync >/dev/null 2>&1; then
	RS=$TMP/rs
	target "rsync: $RS"
	n=$(nfiles)
	run deploy "$SITE"
	check "rsync: exit 0" test "$rc" -eq 0
	check "rsync, first: every file" test "$out" = "$(summary "$n" 0 0 "rsync $RS")"
	check "rsync, first: the target holds the site" holds "$RS"
	echo "mine" >"$RS/hand.txt"
	edit three
	run deploy "$SITE" --dry-run
	check "rsync, dry run: the changed files listed" test "$(printf '%s\n' "$out" | grep -c '^upload ')" -eq "$want"
	snap "$RS" >"$TMP/rs.now"
	snap "$PUB" >"$TMP/pub.now"
	check "rsync, dry run: nothing uploaded" test "$(changed "$TMP/rs.now" "$TMP/pub.now")" -eq "$want"
	run deploy "$SITE"
	check "rsync, an edit: exactly the changed files" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "rsync $RS")"
	check "rsync, an edit: the target holds the site" holds "$RS"
	drop why-this-blog
	run deploy "$SITE"
	check "rsync, a deleted post: deleted there" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "rsync $RS")"
	check "rsync, a deleted post: its page gone" test ! -e "$RS/posts/why-this-blog/index.html"
	check "rsync: the file put by hand stays" test "$(cat "$RS/hand.txt")" = mine
	restore
	build
else
	echo "FAIL rsync is not installed (apt-get install rsync)"
	fail=$((fail + 1))
fi

# ---- rsync over SSH, to an sshd of the test's own ----
# ssh_start: sshd on $SSH_PORT with the test's host key, accepting the
# test's key only; 0 once it answers
ssh_start() {
	"$SSHD" -D -e -f "$TMP/sshd_config" -p "$SSH_PORT" 2>>"$TMP/sshd.log" &
	sshd_pid=$!
	for _ in $(seq 1 50); do
		ssh $SSH_OPTS -p "$SSH_PORT" "$SSH_USER@127.0.0.1" true 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
ssh_stop() {
	[ -n "${sshd_pid:-}" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
	sshd_pid=""
}
trap 'ssh_stop; rm -rf "$TMP"' EXIT
ssh_ok=0
if [ -x "$SSHD" ] && command -v rsync >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1; then
	SSH_USER=$(id -un)
	SSH_PORT=$(free_port)
	mkdir -p "$TMP/ssh" && chmod 700 "$TMP/ssh"
	ssh-keygen -q -t ed25519 -N '' -f "$TMP/ssh/host" && ssh-keygen -q -t ed25519 -N '' -f "$TMP/ssh/user"
	cp "$TMP/ssh/user.pub" "$TMP/ssh/authorized_keys"
	[ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd
	cat >"$TMP/sshd_config" <<EOF
ListenAddress 127.0.0.1
HostKey $TMP/ssh/host
AuthorizedKeysFile $TMP/ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile $TMP/ssh/sshd.pid
EOF
	SSH_OPTS="-i $TMP/ssh/user -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=5"
	ssh_start && ssh_ok=1
fi
if [ "$ssh_ok" -eq 1 ]; then
	export RSYNC_RSH="ssh $SSH_OPTS -p $SSH_PORT"
	SR=$TMP/ssh-www
	DEST="$SSH_USER@127.0.0.1:$SR"
	target "rsync: \"$DEST\""
	n=$(nfiles)
	run deploy "$SITE"
	check "rsync over SSH: exit 0" test "$rc" -eq 0
	check "rsync over SSH, first: every file" test "$out" = "$(summary "$n" 0 0 "rsync $DEST")"
	check "rsync over SSH, first: the target holds the site" holds "$SR"
	echo "mine" >"$SR/hand.txt"
	edit four
	ssh_stop
	snap "$SR" >"$TMP/sr.before"
	run deploy "$SITE"
	check "rsync over SSH, sshd stopped: exit 1" test "$rc" -eq 1
	check "rsync over SSH, sshd stopped: the error" contains "$err" "$DEST: error: rsync failed (exit "
	check "rsync over SSH, sshd stopped: the hint" contains "$err" "(hint: check that 'ssh HOST' reaches the host without asking anything"
	check "rsync over SSH, sshd stopped: nothing changed there" test "$(snap "$SR")" = "$(cat "$TMP/sr.before")"
	check "rsync over SSH: no key printed" not_contains "$out$err" "PRIVATE KEY"
	ssh_start
	run deploy "$SITE"
	check "rsync over SSH, sshd back: the changed files" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "rsync $DEST")"
	check "rsync over SSH, sshd back: the target holds the site" holds "$SR"
	drop why-this-blog
	run deploy "$SITE"
	check "rsync over SSH, a deleted post: deleted there" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "rsync $DEST")"
	check "rsync over SSH: the file put by hand stays" test "$(cat "$SR/hand.txt")" = mine
	ssh_stop
	unset RSYNC_RSH
	restore
	build
elif [ "${CI:-}" = true ]; then
	echo "FAIL rsync over SSH: no sshd could be started (see $TMP/sshd.log)"
	fail=$((fail + 1))
else
	echo "skipped: rsync over SSH (no sshd could be started: apt-get install openssh-server rsync)"
fi

# ---- S3, against moto_server (Debian 12's python3-moto) ----
# s3proxy.py: a proxy in front of moto that answers 503 SlowDown to every
# PUT after the first N while the file $TMP/fail-after holds N: an upload
# that fails midway
cat >"$TMP/s3proxy.py" <<'EOF'
import http.client, http.server, os, sys
port, upstream, flag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
puts = [0]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def relay(self):
        if self.path == '/__ready':
            self.send_response(204); self.end_headers(); return
        n = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(n) if n else None
        if self.command == 'PUT' and os.path.exists(flag):
            puts[0] += 1
            if puts[0] > int(open(flag).read()):
                msg = b'<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>'
                self.send_response(503); self.send_header('Content-Length', str(len(msg))); self.end_headers()
                self.wfile.write(msg); return
        elif not os.path.exists(flag):
            puts[0] = 0
        c = http.client.HTTPConnection('127.0.0.1', upstream)
        c.request(self.command, self.path, body, {k: v for k, v in self.headers.items() if k.lower() != 'expect'})
        r = c.getresponse(); data = r.read()
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ('transfer-encoding', 'connection', 'content-length', 'server', 'date'):
                self.send_header(k, v)
        self.send_header('Content-Length', str(len(data))); self.end_headers()
        if self.command != 'HEAD': self.wfile.write(data)
    do_GET = do_PUT = do_DELETE = do_HEAD = do_POST = relay
http.server.ThreadingHTTPServer(('127.0.0.1', port), H).serve_forever()
EOF
if ! command -v moto_server >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 &&
	apt-cache policy python3-moto 2>/dev/null | grep -q 'Candidate: [0-9]'; then
	apt-get install -y python3-moto >/dev/null 2>&1
fi
moto_pid=""
proxy_pid=""
trap 'ssh_stop; [ -n "$moto_pid" ] && kill $moto_pid $proxy_pid 2>/dev/null; rm -rf "$TMP"' EXIT
s3_up=0
if command -v moto_server >/dev/null 2>&1; then
	MPORT=$(free_port)
	# with IAM's checks on after four calls: the one that finds it up and
	# the three that make the test's user and its key; every signature is
	# checked after them
	INITIAL_NO_AUTH_ACTION_COUNT=4 moto_server -H 127.0.0.1 -p "$MPORT" >"$TMP/moto.log" 2>&1 &
	moto_pid=$!
	for _ in $(seq 1 100); do
		curl -s -o /dev/null "http://127.0.0.1:$MPORT/" && s3_up=1 && break
		sleep 0.1
	done
	# a user allowed everything, and its key (IAM's query API, routed by
	# the signature's service)
	iam() { curl -s --aws-sigv4 aws:amz:us-east-1:iam --user "x:x" "http://127.0.0.1:$MPORT/" -d "$1&Version=2010-05-08"; }
	iam "Action=CreateUser&UserName=folio" >/dev/null
	iam "Action=PutUserPolicy&UserName=folio&PolicyName=all&PolicyDocument=%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%7B%22Effect%22%3A%22Allow%22%2C%22Action%22%3A%22*%22%2C%22Resource%22%3A%22*%22%7D%5D%7D" >/dev/null
	iam "Action=CreateAccessKey&UserName=folio" >"$TMP/key.xml"
	PPORT=$(free_port)
	python3 "$TMP/s3proxy.py" "$PPORT" "$MPORT" "$TMP/fail-after" 2>"$TMP/proxy.log" &
	proxy_pid=$!
	for _ in $(seq 1 100); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PPORT/__ready")" = 204 ] && break
		sleep 0.1
	done
fi
if [ "$s3_up" -eq 1 ]; then
	AWS_ACCESS_KEY_ID=$(sed -n 's:.*<AccessKeyId>\([^<]*\)</AccessKeyId>.*:\1:p' "$TMP/key.xml")
	AWS_SECRET_ACCESS_KEY=$(sed -n 's:.*<SecretAccessKey>\([^<]*\)</SecretAccessKey>.*:\1:p' "$TMP/key.xml")
	export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
	check "s3: the test's key is made (moto checks signatures)" test -n "$AWS_ACCESS_KEY_ID" -a -n "$AWS_SECRET_ACCESS_KEY"
	EP=http://127.0.0.1:$PPORT
	# s3 ARGS...: curl signed with the test's credentials
	s3() { curl -s --aws-sigv4 aws:amz:us-east-1:s3 --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
		-H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"; }
	keys() { s3 "http://127.0.0.1:$MPORT/blog?list-type=2&max-keys=1000" | grep -o '<Key>[^<]*</Key>' | wc -l; }
	header() { s3 -I "http://127.0.0.1:$MPORT/blog/$1" | tr -d '\r' | grep -i "^$2:" | sed 's/^[^:]*: //'; }
	: >"$TMP/s3.all"
	s3run() { run "$@"; printf '%s\n%s\n' "$out" "$err" >>"$TMP/s3.all"; }
	SHOWN="s3 bucket blog at $EP"
	target "s3: {bucket: blog, endpoint: \"$EP\", region: us-east-1}"
	n=$(nfiles)
	s3run deploy "$SITE"
	check "s3, no bucket: exit 1" test "$rc" -eq 1
	check "s3, no bucket: the object's address" contains "$err" "$EP/blog/"
	check "s3, no bucket: NoSuchBucket" contains "$err" "HTTP 404 NoSuchBucket"
	check "s3, no bucket: the hint" contains "$err" "(hint: check deploy.s3.bucket and deploy.s3.endpoint, and that the bucket exists)"
	s3 -X PUT -o /dev/null "http://127.0.0.1:$MPORT/blog"
	s3run deploy "$SITE"
	check "s3: exit 0" test "$rc" -eq 0
	check "s3, first: every file" test "$out" = "$(summary "$n" 0 0 "$SHOWN")"
	check "s3, first: every object" test "$(keys)" -eq "$n"
	s3 -o "$TMP/got" "http://127.0.0.1:$MPORT/blog/index.html"
	check "s3, first: the bytes of a page" cmp -s "$TMP/got" "$PUB/index.html"
	check "s3: a page's Content-Type" test "$(header index.html content-type)" = "text/html; charset=utf-8"
	check "s3: a page's Cache-Control is short" test "$(header index.html cache-control)" = "public, max-age=0, must-revalidate"
	css=$(cd "$PUB" && ls style.*.css | head -1)
	check "s3: a fingerprinted file's Content-Type" test "$(header "$css" content-type)" = "text/css; charset=utf-8"
	check "s3: a fingerprinted file's Cache-Control is long" test "$(header "$css" cache-control)" = "public, max-age=31536000, immutable"
	echo "mine" | s3 -T - "http://127.0.0.1:$MPORT/blog/hand.txt" -o /dev/null
	edit seven
	s3run deploy "$SITE" --dry-run
	check "s3, dry run: the changed files listed" test "$(printf '%s\n' "$out" | grep -c '^upload ')" -eq "$want"
	s3 -o "$TMP/got" "http://127.0.0.1:$MPORT/blog/posts/first-steps-3-publishing/index.html"
	check "s3, dry run: nothing uploaded" test "$(cmp -s "$TMP/got" "$PUB/posts/first-steps-3-publishing/index.html" && echo same)" = ""
	s3run deploy "$SITE"
	check "s3, an edit: exactly the changed files" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "$SHOWN")"
	s3 -o "$TMP/got" "http://127.0.0.1:$MPORT/blog/posts/first-steps-3-publishing/index.html"
	check "s3, an edit: the page's new bytes" cmp -s "$TMP/got" "$PUB/posts/first-steps-3-publishing/index.html"
	check "s3: the object put by hand stays" test "$(s3 "http://127.0.0.1:$MPORT/blog/hand.txt")" = mine
	check "s3: the bucket holds the site and the hand's object" test "$(keys)" -eq $(($(nfiles) + 1))
	drop why-this-blog
	s3run deploy "$SITE"
	check "s3, a deleted post: deleted there" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "$SHOWN")"
	check "s3, a deleted post: its page gone" test "$(s3 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MPORT/blog/posts/why-this-blog/index.html")" = 404
	check "s3, a deleted post: the hand's object stays" test "$(keys)" -eq $(($(nfiles) + 1))
	# a failure midway: the service refuses the fourth upload
	echo 3 >"$TMP/fail-after"
	edit eight
	s3run deploy "$SITE"
	check "s3, failure midway: exit 1" test "$rc" -eq 1
	check "s3, failure midway: the service's reason" contains "$err" "error: cannot upload it: HTTP 503 SlowDown: Please reduce your request rate. (hint: the service failed: deploy again later, and the next deploy does the rest)"
	check "s3, failure midway: how far it went" contains "$err" "folio: deploy stopped after 3 of $want uploads"
	check "s3, failure midway: nothing deleted" test "$(keys)" -ge $(($(nfiles) + 1))
	rm "$TMP/fail-after"
	s3run deploy "$SITE"
	check "s3, after the failure: exactly the rest" test "$out" = "$(summary $((want - 3)) "$gone" $(($(nfiles) - want + 3)) "$SHOWN")"
	check "s3, after the failure: the bucket holds the site" test "$(keys)" -eq $(($(nfiles) + 1))
	s3 -o "$TMP/got" "http://127.0.0.1:$MPORT/blog/posts/first-steps-3-publishing/index.html"
	check "s3, after the failure: the page's new bytes" cmp -s "$TMP/got" "$PUB/posts/first-steps-3-publishing/index.html"
	# a wrong secret: the service refuses the signature, and says so
	(AWS_SECRET_ACCESS_KEY=wrong-s3cr3t "$FOLIO" deploy "$SITE" --all >"$TMP/out" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
	cat "$TMP/out" "$TMP/err" >>"$TMP/s3.all"
	check "s3, a wrong secret: exit 1" test "$rc" -eq 1
	check "s3, a wrong secret: the service's reason" contains "$err" "HTTP 403 SignatureDoesNotMatch"
	# credentials: from ~/.aws/credentials when not in the environment, else none
	mkdir -p "$TMP/home/.aws"
	printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" >"$TMP/home/.aws/credentials"
	(unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; HOME=$TMP/home "$FOLIO" deploy "$SITE" --all >"$TMP/out" 2>"$TMP/err")
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
	cat "$TMP/out" "$TMP/err" >>"$TMP/s3.all"
	check "s3, credentials from ~/.aws/credentials (every file signed with them)" test "$out" = "$(summary "$(nfiles)" 0 0 "$SHOWN")"
	(unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; HOME=$TMP/nohome "$FOLIO" deploy "$SITE" --all >"$TMP/out" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
	check "s3, no credentials: exit 1" test "$rc" -eq 1
	check "s3, no credentials: said, with a hint" contains "$err" "folio: error: no S3 credentials (hint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
	check "s3: the secret never printed" not_contains "$(cat "$TMP/s3.all")" "$AWS_SECRET_ACCESS_KEY"
	check "s3: nor a wrong one" not_contains "$(cat "$TMP/s3.all")" "s3cr3t"
	check "s3: the key id never printed" not_contains "$(cat "$TMP/s3.all")" "$AWS_ACCESS_KEY_ID"
	unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
	restore
	build
elif [ "${CI:-}" = true ]; then
	echo "FAIL s3: moto_server could not be started (apt-get install python3-moto)"
	fail=$((fail + 1))
else
	echo "skipped: s3 (no moto_server: apt-get install python3-moto)"
fi

# ---- a git branch ----
REPO=$TMP/remote.git
git init -q --bare "$REPO"
target "git: {repo: \"$REPO\", branch: gh-pages}"
n=$(nfiles)
# branch_files: the branch's files as snap lists them
branch_files() { rm -rf "$TMP/co" && git clone -q -b gh-pages "$REPO" "$TMP/co" 2>/dev/null; }
run deploy "$SITE" --dry-run
check "git, dry run: no branch made" test -z "$(git --git-dir="$REPO" branch --list gh-pages)"
# the commit's date is the build clock's (not the builds': their posts
# would be in the future)
export SOURCE_DATE_EPOCH=1700000000
run deploy "$SITE"
unset SOURCE_DATE_EPOCH
check "git: exit 0" test "$rc" -eq 0
check "git, first: every file" test "$out" = "$(summary "$n" 0 0 "git $REPO, branch gh-pages")"
check "git, first: the commit names folio and the date" test "$(git --git-dir="$REPO" log -1 --format=%s gh-pages)" = "folio 0.1.0 deploy, 2023-11-14 22:13 UTC"
check "git, first: dated by SOURCE_DATE_EPOCH" test "$(git --git-dir="$REPO" log -1 --format=%ct gh-pages)" = 1700000000
branch_files
check "git, first: the branch holds the site" holds "$TMP/co"
# by hand: a CNAME committed onto the branch
echo "blog.example.org" >"$TMP/co/CNAME"
git -C "$TMP/co" add CNAME && git -C "$TMP/co" -c user.name=t -c user.email=t@t commit -q -m "CNAME by hand" && git -C "$TMP/co" push -q origin gh-pages
edit five
tip=$(git --git-dir="$REPO" rev-parse gh-pages)
run deploy "$SITE" -n
check "git, dry run: the changed files listed" test "$(printf '%s\n' "$out" | grep -c '^upload ')" -eq "$want"
check "git, dry run: the branch unchanged" test "$(git --git-dir="$REPO" rev-parse gh-pages)" = "$tip"
run deploy "$SITE"
check "git, an edit: exactly the changed files" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "git $REPO, branch gh-pages")"
check "git, an edit: one commit onto the last" test "$(git --git-dir="$REPO" rev-parse gh-pages~1)" = "$tip"
check "git, an edit: the commit changes those files only" test "$(git --git-dir="$REPO" diff --name-only gh-pages~1 gh-pages | wc -l)" -eq $((want + gone))
branch_files
check "git, an edit: the branch holds the site" holds "$TMP/co"
check "git: the CNAME put by hand stays" test "$(cat "$TMP/co/CNAME")" = "blog.example.org"
drop why-this-blog
run deploy "$SITE"
check "git, a deleted post: deleted there" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "git $REPO, branch gh-pages")"
branch_files
check "git, a deleted post: its page gone from the branch" test ! -e "$TMP/co/posts/why-this-blog/index.html"
check "git, a deleted post: the CNAME stays" test -f "$TMP/co/CNAME"
# a push the repository refuses
printf '#!/bin/sh\necho "pushes are closed today" >&2\nexit 1\n' >"$REPO/hooks/pre-receive"
chmod +x "$REPO/hooks/pre-receive"
edit six
tip=$(git --git-dir="$REPO" rev-parse gh-pages)
run deploy "$SITE"
check "git, a refused push: exit 1" test "$rc" -eq 1
check "git, a refused push: the error, git's reason and a hint" contains "$err" "$REPO: error: the repository refused the push: remote: pushes are closed today (hint: nothing was changed there"
check "git, a refused push: the hint" contains "$err" "(hint: nothing was changed there"
check "git, a refused push: the branch unchanged" test "$(git --git-dir="$REPO" rev-parse gh-pages)" = "$tip"
rm "$REPO/hooks/pre-receive"
run deploy "$SITE"
check "git, after the refused push: the changed files" test "$out" = "$(summary "$want" "$gone" $(($(nfiles) - want)) "git $REPO, branch gh-pages")"
branch_files
check "git, after the refused push: the branch holds the site" holds "$TMP/co"
# a relative path is the site folder's, from any folder: the same target
target "git: {repo: ../remote.git, branch: gh-pages}"
FOLIO_ABS=$(cd "$(dirname "$FOLIO")" && pwd)/$(basename "$FOLIO")
(cd / && "$FOLIO_ABS" deploy "$SITE" >"$TMP/out" 2>"$TMP/err")
rc=$?
out=$(cat "$TMP/out")
err=$(cat "$TMP/err")
check "git, a relative repository: the site folder's, the same target" test "$out" = "$(summary 0 0 "$(nfiles)" "git $REPO, branch gh-pages")"
# an address that is not there
target "git: {repo: \"$TMP/nowhere.git\"}"
run deploy "$SITE"
check "git, no repository: exit 1" test "$rc" -eq 1
check "git, no repository: the error and its hint" contains "$err" "$TMP/nowhere.git: error: cannot reach the repository: "
check "git, no repository: the hint" contains "$err" "(hint: check deploy.git.repo in folio.yml, and that 'git ls-remote REPO' works here)"
# a secret in the environment is never printed: git's message is scrubbed
target "git: {repo: \"http://127.0.0.1:$(free_port)/site.git\"}"
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraHeader GIT_CONFIG_VALUE_0="Authorization: Bearer tok-secret-42"
run deploy "$SITE"
unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0
check "git, a token in git's config: exit 1" test "$rc" -eq 1
check "git, a token in git's config: never printed" not_contains "$out$err" "tok-secret-42"

finish
