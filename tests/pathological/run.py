#!/usr/bin/env python3
"""run.py: builds every pathological site of gen.py with folio and checks
that none hangs, crashes or runs out of memory.

A build may take at most LIMIT seconds of user CPU (PATHO_LIMIT, default
5: a hang detector, not a speed target; measure.py compares the times with
the goal of 0.5 s; CPU, not wall time, which two suites at once on two
cores stretch: a case that spends its page's 3 s of formulas took over 5 s
of wall time beside test_browser; user, not system, time: on a fresh
virtual machine the first touch of memory is paid in system time, and the
same 400 MB render took 4.9 s of it on its first run and 0.05 s on the
next, which failed CI once), and is killed after four times that of wall
time (which catches a case stuck in system calls); and in a release build at most 3 GiB of address
space. A case
that renders must exit 0 with well-formed pages of valid UTF-8; a case that
must fail exits 1 with `path:line:col: error: message` on stderr.

    run.py [-v] [NAME...]      FOLIO: the binary (default ./folio)
                               PATHO_SIZE: bytes of input (default 1 MiB;
                               256 KiB under ASan, 64 KiB under valgrind)

Prints FAIL lines and ends with "N passed, N failed". Under an ASan build
(detected from the binary) the limit is four times as long (ASan makes
folio's own code some 3 times slower; the slowest case takes 6 s there)
and there is no address space limit (ASan reserves terabytes); the inputs
are 256 KiB (the same shapes: ASan looks for memory errors, and the
release build's run, with 1 MiB, for what size costs; at 1 MiB the ASan
run took 5.6 minutes of CI's 30). Under valgrind
(FOLIO_VALGRIND set, by `make valgrind`) the inputs are 64 KiB (the same
shapes: valgrind looks for memory errors, not for what size costs), the
limit is sixty times as long, and there is no address space limit either
(valgrind's own memory would count).
"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

FOLIO = os.environ.get("FOLIO", "./folio")
DIAG = re.compile(rb"^[^\s:][^:\n]*(:\d+(:\d+)?)?: error: \S")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose end tag HTML lets one leave out; folio writes them all,
# but a tag balance check that does not know them would be wrong.
OPTIONAL_END = {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "option"}


def is_asan(path):
    try:
        with open(path, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


TAG = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9-]*)[^>]*>", re.S)
RAW_TEXT = re.compile(r"<(script|style|textarea|title)\b[^>]*>.*?</\1\s*>", re.S | re.I)


def unbalanced(text):
    """Where start and end tags of text do not nest (void elements and
    left-out optional end tags aside), or None. One regular expression and
    a loop over its matches, not html.parser: that takes half a minute on a
    40 MB page."""
    text = RAW_TEXT.sub("<x></x>", text)  # the text of <script> is not markup
    stack = []
    push, pop = stack.append, stack.pop
    void, optional = VOID, OPTIONAL_END
    for m in TAG.finditer(text):
        close, tag = m.group(1, 2)
        if tag is None:  # a comment
            continue
        tag = tag.lower()
        if tag in void or m.group(0).endswith("/>"):  # SVG's <path ... /> closes itself
            continue
        if not close:
            push((tag, m.start()))
            continue
        while stack and stack[-1][0] != tag and stack[-1][0] in optional:
            pop()
        if not stack or stack[-1][0] != tag:
            top = stack[-1] if stack else ("nothing", 0)
            return "</%s> at line %d closes <%s> of line %d" % (tag, text.count("\n", 0, m.start()) + 1, top[0],
                                                                   text.count("\n", 0, top[1]) + 1)
        pop()
    while stack and stack[-1][0] in optional:
        pop()
    if stack:
        return "<%s> of line %d is never closed" % (stack[-1][0], text.count("\n", 0, stack[-1][1]) + 1)
    return None


def check_pages(case, out):
    """Problems with the built site in out: not UTF-8, not whole, unbalanced."""
    problems = []
    post = os.path.join(out, case.post, "index.html")
    if not os.path.isfile(post):
        problems.append("no page %s/index.html" % case.post)
    for dirpath, _, names in os.walk(os.fsencode(out)):
        for name in names:
            if not name.endswith((b".html", b".xml", b".json")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, os.fsencode(out)).decode("utf-8", "backslashreplace")
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError:
                problems.append("a file name that is not UTF-8: %r" % rel)
            with open(path, "rb") as f:
                data = f.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                problems.append("%s is not UTF-8: %s" % (rel, e))
                continue
            if name.endswith(b".html") and not text.rstrip().endswith("</html>"):
                problems.append("%s does not end with </html>" % rel)
            if "\0" in text:
                problems.append("%s holds a NUL byte" % rel)
            if name == b"index.html" and path == os.fsencode(post) and case.balanced:
                problem = unbalanced(text)
                if problem:
                    problems.append("%s: %s" % (rel, problem))
    return problems


def run_folio(site, out, limit, asan):
    """Runs folio build; (exit status or -signal, (user, system) seconds
    of CPU (wall seconds and 0 if killed), max RSS in MiB,
    stderr bytes, 1 if killed for taking too long). asan: no address space
    limit."""

    def prepare():
        os.setsid()
        if not asan:  # ASan reserves terabytes of address space
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    t0 = time.monotonic()
    with open(os.path.join(os.path.dirname(out), "stderr"), "wb+") as err:
        # Two threads: the one post is built on one, and the address space
        # limit must not depend on the machine's cores (each thread has its
        # stack and a malloc arena of 64 MiB reserved).
        p = subprocess.Popen([FOLIO, "build", site, "-o", out, "-j", "2"], stdout=subprocess.DEVNULL, stderr=err,
                             preexec_fn=prepare, env=dict(os.environ, NO_COLOR="1"))
        killed = 0
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            # a hang: four times the limit of wall time (the verdict is on
            # CPU time, below: on a machine busy with other tests, a case
            # that spends its page's 3 s of formulas waits for a core too)
            if time.monotonic() - t0 > 4 * limit:
                os.killpg(p.pid, signal.SIGKILL)
                killed = 1
            time.sleep(0.005)
        p.returncode = 0  # reaped by wait4
        # the verdict is on user time (see the top); system time is told
        secs = (ru.ru_utime, ru.ru_stime) if not killed else (time.monotonic() - t0, 0.0)
        err.seek(0)
        stderr = err.read()
    code = os.waitstatus_to_exitcode(status)
    return code, secs, ru.ru_maxrss / 1024, stderr, killed


def first_error(stderr):
    for line in stderr.splitlines():
        if b": error: " in line:
            return line
    return b""


def check_case(case, tmp, size, limit, asan):
    """Problems found building case (an empty list when it passed)."""
    root = os.path.join(tmp, case.name)
    site, out = os.path.join(root, "site"), os.path.join(root, "out")
    gen.write(case, site, size)
    code, secs, rss, stderr, killed = run_folio(site, out, limit, asan)
    problems = []
    if killed:
        problems.append("took more than %g s of wall time (killed)" % (4 * limit))
    elif secs[0] > limit:
        problems.append("took %.2f s of user CPU (and %.2f s of system), more than %g s" % (secs[0], secs[1], limit))
    elif code < 0:
        problems.append("killed by signal %d" % -code)
    elif code not in (0, 1):
        problems.append("exit status %d" % code)
    if b"Sanitizer" in stderr or b"runtime error" in stderr:
        problems.append("sanitizer report")
    if not problems:
        if code == 0 and case.kind == "error":
            problems.append("built, but should fail with '%s'" % case.expect)
        elif code == 1 and case.kind == "render":
            problems.append("failed, but should build")
        elif code == 1:
            line = first_error(stderr)
            if not line or not DIAG.match(line):
                problems.append("no 'path:line:col: error: message' on stderr")
            elif case.expect and case.expect.encode() not in line:
                problems.append("the first error lacks '%s'" % case.expect)
        else:
            if b"error:" in stderr:
                problems.append("exit 0 but an error on stderr")
            problems += check_pages(case, out)
    shutil.rmtree(root, ignore_errors=True)
    return problems, code, secs, rss, stderr


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv[1:] if a != "-v"]
    asan = is_asan(FOLIO)
    valgrind = bool(os.environ.get("FOLIO_VALGRIND"))
    size = int(os.environ.get("PATHO_SIZE", gen.MIB // 16 if valgrind else gen.MIB // 4 if asan else gen.MIB))
    limit = float(os.environ.get("PATHO_LIMIT", "5")) * (60 if valgrind else 4 if asan else 1)
    asan = asan or valgrind  # neither gets an address space limit
    cases = [gen.by_name(n) for n in names] if names else gen.CASES
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="folio-patho-")
    try:
        for case in cases:
            problems, code, secs, rss, stderr = check_case(case, tmp, size, limit, asan)
            if verbose:
                print("%-28s %-6s exit %d %6.2f s %5.2f s %6.0f MiB  %s" % (case.name, case.kind, code, secs[0], secs[1],
                      rss,
                      first_error(stderr)[:120].decode("utf-8", "replace")))
            if problems:
                failed += 1
                print("FAIL %s (%s): %s" % (case.name, case.what, "; ".join(problems)))
                for line in stderr.splitlines()[:3]:
                    print("  stderr: %s" % line[:200].decode("utf-8", "replace"))
            else:
                passed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
