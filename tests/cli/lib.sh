# lib.sh: helpers for the command-line tests. Each test file sources it,
# calls check/check_out, and ends with `finish`.
FOLIO=${FOLIO:-./folio}
pass=0
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run CMD...: runs folio with the arguments; sets $rc, $out (stdout), $err (stderr).
run() {
	"$FOLIO" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

# check NAME CONDITION...: one assertion, evaluated by test(1) or a command.
check() {
	name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name"
		echo "  rc=$rc"
		echo "  stdout: $(echo "$out" | head -5)"
		echo "  stderr: $(echo "$err" | head -5)"
	fi
}

# stop_serve: stops the server whose pid is $spid, if one runs: TERM, then
# KILL after 0.2 s. The serve tests call it from their EXIT trap.
spid=""
stop_serve() {
	if [ -n "$spid" ]; then
		kill -TERM "$spid" 2>/dev/null
		sleep 0.2
		kill -KILL "$spid" 2>/dev/null
	fi
}

# free_port: a loopback port that nothing listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve_start SITE [TMPDIR]: folio serve of SITE on a free loopback port,
# in the background: sets $port, $url and $spid; its output goes to
# $TMP/serve.out and $TMP/serve.err, its scratch folders to TMPDIR
# (default $TMP). serve_wait: then sets up=1 once it answers (within 10 s,
# times WAIT_SCALE), else up=0.
serve_start() {
	port=$(free_port)
	url=http://127.0.0.1:$port
	TMPDIR=${2:-$TMP} "$FOLIO" serve "$1" --port "$port" >"$TMP/serve.out" 2>"$TMP/serve.err" &
	spid=$!
}
serve_wait() {
	up=0
	for _ in $(seq 1 $((100 * ${WAIT_SCALE:-1}))); do
		if curl -s -o /dev/null --max-time 1 "$url/"; then
			up=1
			return
		fi
		sleep 0.1
	done
}

# serve_builds: the rounds folio serve (serve_start) has reported so far,
# failed ones included; serve_settle N [PAUSE]: waits until it has
# reported more than N (10 seconds, times WAIT_SCALE), then PAUSE seconds
# (0.5) for no other to follow
serve_builds() { grep -cE '^folio serve: (built|rebuilt) |error' "$TMP/serve.err"; }
serve_settle() {
	for _ in $(seq 1 $((200 * ${WAIT_SCALE:-1}))); do
		[ "$(serve_builds)" -gt "$1" ] && break
		sleep 0.05
	done
	sleep "${2:-0.5}"
}
contains() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }
not_contains() { ! contains "$1" "$2"; }
# has_line TEXT START: a line of TEXT begins with START (a message that
# names a site-relative path, not one with the site's folder in front)
has_line() { contains "$(printf '\n%s' "$1")" "$(printf '\n%s' "$2")"; }

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# ---- the serve tests' own (test_serve, test_patch) ----

# serve_cleanup: the EXIT trap of a serve test: the server and the event
# streams it follows (pids in $TMP/curl.pid) stopped, $TMP removed.
serve_cleanup() {
	stop_serve
	for p in $(cat "$TMP"/curl.pid 2>/dev/null); do kill "$p" 2>/dev/null; done
	rm -rf "$TMP"
}

# need_curl: a failed suite, at once, without curl and python3.
need_curl() {
	if ! command -v curl >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		echo "FAIL curl and python3 are needed (scripts/deps.sh installs them)"
		echo "0 passed, 1 failed"
		exit 1
	fi
}

# wait_for FILE TEXT: until FILE contains TEXT (at most 10 s times WAIT_SCALE)
wait_for() {
	for _ in $(seq 1 $((100 * ${WAIT_SCALE:-1}))); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# events FILE: follows the event stream of $url into FILE for at most 10 s
# times WAIT_SCALE, once its first event is in
events() {
	curl -sN --max-time $((10 * ${WAIT_SCALE:-1})) "$url/__folio/events" >"$1" &
	echo $! >>"$TMP/curl.pid"
	wait_for "$1" "^event: "
}

# ---- the browser suites' own (test_browser, test_search) ----

# browser_env: the browser and where screenshots go, for the .mjs scripts.
browser_env() {
	CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
	export CHROMIUM
	TEST_OUTPUT=${TEST_OUTPUT:-tests/browser/out}
	export TEST_OUTPUT
}

# stop_server: stops the static server whose pid is $server, if one runs.
server=""
stop_server() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		server=""
	fi
}

# need_browser: node, chromium, python3 and tests/browser/node_modules
# (playwright-core and axe-core, scripts/deps-browser.sh installs them), or
# the suite ends here: failed on CI (CI=true), skipped elsewhere.
need_browser() {
	missing=""
	command -v node >/dev/null 2>&1 || missing="$missing node"
	[ -x "$CHROMIUM" ] || missing="$missing chromium ($CHROMIUM)"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	[ -f tests/browser/node_modules/playwright-core/package.json ] || missing="$missing playwright-core"
	[ -f tests/browser/node_modules/axe-core/axe.min.js ] || missing="$missing axe-core"
	[ -n "$missing" ] || return 0
	if [ "${CI:-}" = true ]; then
		rc=1
		out=""
		err="missing:$missing (scripts/deps-browser.sh installs them)"
		check "the browser test has what it needs" false
		finish
		exit 1
	fi
	echo "skipped: missing$missing (run sh scripts/deps-browser.sh)"
	finish
	exit 0
}
