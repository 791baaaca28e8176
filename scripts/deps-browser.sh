#!/bin/sh
# deps-browser.sh: what the browser test (tests/cli/test_browser.sh) needs,
# idempotently, one line of output per step (run by deps.sh):
#  - Debian's chromium (/usr/bin/chromium), installed with apt-get; never a
#    browser of Playwright's own;
#  - node (20 or newer, which playwright-core needs) and npm;
#  - a Java runtime (Debian's default-jre-headless) for the Nu HTML checker
#    (vnu-jar, an npm package of tests/browser);
#  - tests/browser/node_modules: `npm ci` from the pinned package-lock.json
#    (playwright-core, axe-core, vnu-jar), again whenever the lock file
#    changes (a stamp keeps its checksum). Install scripts are not run:
#    vnu-jar's would fetch a Java of its own.
set -eu
cd "$(dirname "$0")/.."

NODE_MIN=20
dir=tests/browser
stamp=$dir/node_modules/.folio-lock-sha256

say() { printf 'deps-browser: %s\n' "$*"; }
die() {
	printf 'deps-browser: error: %s\n' "$*" >&2
	exit 1
}

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi

updated=0
# apt_install PKG...: installs Debian packages, the index refreshed once.
apt_install() {
	if [ "$updated" = 0 ]; then
		$sudo_cmd apt-get update -qq
		updated=1
	fi
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if installed chromium && [ -x /usr/bin/chromium ]; then
	say "chromium present ($(dpkg-query -W -f='${Version}' chromium))"
else
	say "installing chromium (Debian package)"
	apt_install chromium
	[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after installing chromium"
fi

if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
	say "node $(node --version) and npm $(npm --version) present"
else
	say "installing node and npm (Debian packages)"
	apt_install nodejs npm
fi
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$major" -ge "$NODE_MIN" ] ||
	die "node $(node --version 2>/dev/null) is older than $NODE_MIN, which playwright-core (tests/browser) needs"

if command -v java >/dev/null 2>&1; then
	say "java present ($(java -version 2>&1 | head -n 1))"
else
	say "installing default-jre-headless (Debian package, for the Nu HTML checker)"
	apt_install default-jre-headless
	command -v java >/dev/null 2>&1 || die "no java after installing default-jre-headless"
fi

sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
	[ -f "$dir/node_modules/playwright-core/package.json" ] && [ -f "$dir/node_modules/vnu-jar/build/dist/vnu.jar" ] &&
	[ -f "$dir/node_modules/axe-core/axe.min.js" ]; then
	say "tests/browser/node_modules up to date with package-lock.json"
else
	say "npm ci in tests/browser (playwright-core, axe-core, vnu-jar; no browser download)"
	(cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --silent --no-audit --no-fund >/dev/null) ||
		die "npm ci in $dir failed"
	echo "$sum" >"$stamp"
fi
