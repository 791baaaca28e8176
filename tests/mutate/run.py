#!/usr/bin/env python3
"""make mutate: how many realistic mistakes do the tests catch?

Reads the catalogue (tests/mutate/*.mut), puts each mutation into a scratch
copy of the tree one at a time, rebuilds folio and the unit tests there, and
runs the quick suites of `make check` (the unit tests and CHECK_SUITES, two
at a time, stopping at the first failure). A mutant that `make check` lets
live then meets the rest of `make test`'s suites. It prints each verdict as
it comes, then the kill rates and every survivor with what it breaks and,
when the catalogue explains it, why no test can tell.

A catalogue entry (see tests/mutate/README):

    [serve-inside-prefix]
    file: src/serve/serve.c
    find: the exact text, once in the file (\\n, \\t and \\\\ escaped)
    replace: its replacement
    breaks: what a user would see go wrong
    equivalent: (only for a mutant no test can kill) why

Usage: run.py [--lint] [--only ID[,ID]] [--check-only] [--keep DIR]
              [--jobs N] [--results FILE]
--lint checks the catalogue (every find once in its file, ids unique, every
folder of src/ covered) and exits. Not in CI: a full run takes about an hour.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAT_DIR = os.path.join(ROOT, 'tests', 'mutate')
FIELDS = ('file', 'find', 'replace', 'breaks', 'equivalent')
RESULT_RE = re.compile(r'^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed', re.M)


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            out.append({'n': '\n', 't': '\t', '\\': '\\'}.get(n, '\\' + n))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def read_catalogue():
    """Every entry of every .mut file, in file order; errors as path:line."""
    entries, errors, seen = [], [], {}
    for name in sorted(os.listdir(CAT_DIR)):
        if not name.endswith('.mut'):
            continue
        path = os.path.join('tests', 'mutate', name)
        cur = None
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip('\n')
                if not line.strip() or line.lstrip().startswith('#'):
                    continue
                m = re.match(r'^\[([a-z0-9][a-z0-9-]*)\]$', line)
                if m:
                    cur = {'id': m.group(1), 'where': '%s:%d' % (path, no)}
                    if cur['id'] in seen:
                        errors.append('%s:%d: error: id %s already used at %s'
                                      % (path, no, cur['id'], seen[cur['id']]))
                    seen[cur['id']] = cur['where']
                    entries.append(cur)
                    continue
                m = re.match(r'^([a-z]+): ?(.*)$', line)
                if not m or cur is None or m.group(1) not in FIELDS:
                    errors.append('%s:%d: error: expected [id] or one of %s'
                                  % (path, no, ', '.join(FIELDS)))
                    continue
                key, val = m.group(1), m.group(2)
                if key in cur:
                    errors.append('%s:%d: error: %s given twice' % (path, no, key))
                cur[key] = unescape(val) if key in ('find', 'replace') else val
    return entries, errors


def lint(entries, errors):
    folders = set()
    for e in entries:
        for k in ('file', 'find', 'replace', 'breaks'):
            if k not in e:
                errors.append('%s: error: [%s] has no %s' % (e['where'], e['id'], k))
        if 'file' not in e or 'find' not in e:
            continue
        p = os.path.join(ROOT, e['file'])
        if not os.path.isfile(p):
            errors.append('%s: error: [%s] %s: no such file' % (e['where'], e['id'], e['file']))
            continue
        text = open(p, encoding='utf-8').read()
        n = text.count(e['find'])
        if n != 1:
            errors.append('%s: error: [%s] its find occurs %d times in %s (once wanted)'
                          % (e['where'], e['id'], n, e['file']))
        if e.get('replace') == e['find']:
            errors.append('%s: error: [%s] replace equals find' % (e['where'], e['id']))
        parts = e['file'].split('/')
        if len(parts) >= 3 and parts[0] == 'src':
            folders.add(parts[1])
    src = sorted(d for d in os.listdir(os.path.join(ROOT, 'src'))
                 if os.path.isdir(os.path.join(ROOT, 'src', d)))
    for d in src:
        if d not in folders:
            errors.append('tests/mutate: error: no mutation in src/%s/' % d)
    return errors


def check_suites():
    mk = open(os.path.join(ROOT, 'Makefile'), encoding='utf-8').read()
    m = re.search(r'^CHECK_SUITES :=((?:.*\\\n)*.*)$', mk, re.M)
    return m.group(1).replace('\\\n', ' ').split()


def all_suites():
    d = os.path.join(ROOT, 'tests', 'cli')
    return sorted(n[:-3] for n in os.listdir(d) if n.startswith('test_') and n.endswith('.sh'))


# The suites of make test that make check leaves out, longest first (as in
# .ci/run) so that the two jobs end together.
LONGEST = ['test_browser', 'test_pathological', 'test_uptodate', 'test_build',
           'test_cache', 'test_deploy', 'test_images', 'test_weight']


def sync_tree(dest):
    """The working tree's files (tracked and new, not ignored) copied into
    dest where they differ, as new files (so that make rebuilds what
    changed since a kept copy was made)."""
    files = subprocess.run(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                           cwd=ROOT, check=True, capture_output=True).stdout.split(b'\0')
    files = [f.decode() for f in files if f and os.path.lexists(os.path.join(ROOT, f.decode()))]
    # the files an earlier sync copied that the tree no longer has
    listed = os.path.join(dest, '.mutate-files')
    if os.path.exists(listed):
        now = set(files)
        for rel in open(listed, encoding='utf-8').read().split('\0'):
            if rel and rel not in now and os.path.lexists(os.path.join(dest, rel)):
                os.remove(os.path.join(dest, rel))
    with open(listed, 'w', encoding='utf-8') as f:
        f.write('\0'.join(files))
    for rel in files:
        src = os.path.join(ROOT, rel)
        if not os.path.lexists(src):
            continue
        dst = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            if os.path.lexists(dst):
                if os.path.islink(dst) and os.readlink(dst) == os.readlink(src):
                    continue
                os.remove(dst)
            os.symlink(os.readlink(src), dst)
        elif not os.path.isfile(dst) or open(src, 'rb').read() != open(dst, 'rb').read():
            if os.path.lexists(dst):
                os.remove(dst)
            shutil.copy(src, dst)


def scratch_copy(dest):
    """The working tree (sync_tree), the fetched packages hard-linked, the
    release build copied (so each mutant recompiles one file), the browser
    tests' node modules linked."""
    sync_tree(dest)
    subprocess.run(['cp', '-al', os.path.join(ROOT, 'deps'), os.path.join(dest, 'deps')], check=True)
    os.makedirs(os.path.join(dest, 'build'), exist_ok=True)
    for sub in ('release', 'gen', 'embed', 'embed-js'):
        s = os.path.join(ROOT, 'build', sub)
        if os.path.isdir(s):
            subprocess.run(['cp', '-a', s, os.path.join(dest, 'build', sub)], check=True)
    if os.path.exists(os.path.join(ROOT, 'folio')):
        shutil.copy2(os.path.join(ROOT, 'folio'), os.path.join(dest, 'folio'))
    nm = os.path.join(ROOT, 'tests', 'browser', 'node_modules')
    if os.path.isdir(nm):
        os.symlink(nm, os.path.join(dest, 'tests', 'browser', 'node_modules'))


def build(tree):
    r = subprocess.run(['make', '-s', '--no-print-directory', '-j2', 'folio', 'build/release/unit_tests'],
                       cwd=tree, capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr)[-2000:]


def start(tree, job):
    env = dict(os.environ, FOLIO='./folio', UNIT='build/release/unit_tests')
    if job == 'unit':
        cmd = ['build/release/unit_tests', 'tests/tmpl', 'man/folio-template.5']
    else:
        cmd = ['sh', 'tests/cli/%s.sh' % job]
    out = tempfile.TemporaryFile(mode='w+b')
    p = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    return p, out, time.time()


def stop(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


def verdict(job, rc, text):
    """None when the job passed, else the reason it failed."""
    lines = RESULT_RE.findall(text)
    fails = [l for l in text.splitlines() if l.startswith('FAIL') or ('FAIL' in l and job == 'unit')]
    first = fails[0][:160] if fails else ''
    if not lines:
        return '%s: no result line (exit %d) %s' % (job, rc, first or text.strip()[-160:])
    nfail = int(lines[-1][2])
    if nfail or rc:
        return '%s: %d failed (exit %d) %s' % (job, nfail, rc, first)
    return None


def run_jobs(tree, jobs, width, timeout):
    """Runs the jobs `width` at a time; returns (None, secs) when all pass,
    else (reason, secs) at the first failure, the others stopped."""
    t0 = time.time()
    queue, live = list(jobs), []
    try:
        return run_queue(tree, queue, live, width, timeout, t0)
    except KeyboardInterrupt:
        for item in live:
            stop(item[1])
        raise


def run_queue(tree, queue, live, width, timeout, t0):
    while queue or live:
        while queue and len(live) < width:
            j = queue.pop(0)
            live.append((j,) + start(tree, j))
        time.sleep(0.05)
        for item in list(live):
            j, p, out, t = item
            rc = p.poll()
            if rc is None and time.time() - t < timeout:
                continue
            if rc is None:
                stop(p)
                reason = '%s: still running after %d s (a hang)' % (j, timeout)
            else:
                out.seek(0)
                reason = verdict(j, rc, out.read().decode('utf-8', 'replace'))
            out.close()
            live.remove(item)
            if reason:
                for other in live:
                    stop(other[1])
                    other[2].close()
                return reason, time.time() - t0
    return None, time.time() - t0


def apply(tree, e):
    path = os.path.join(tree, e['file'])
    text = open(path, encoding='utf-8').read()
    if text.count(e['find']) != 1:
        raise SystemExit('mutate: [%s] find is not once in %s' % (e['id'], e['file']))
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text.replace(e['find'], e['replace']))
    return text


def restore(tree, e, text):
    path = os.path.join(tree, e['file'])
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    now = time.time() + 1
    os.utime(path, (now, now))


def test_baseline(tree, e, original, rest, jobs):
    """make test's other suites on the tree as it is (e's mutation taken
    out, then put back): they must pass, or every mutant that meets them
    would be counted killed. Run once, before the first mutant that
    make check lets live meets them."""
    mutated = open(os.path.join(tree, e['file']), encoding='utf-8').read()
    restore(tree, e, original)
    try:
        ok, log = build(tree)
        reason, secs = run_jobs(tree, rest, jobs, 1200) if ok else ('build: ' + log, 0)
    finally:
        restore(tree, e, mutated)
        build(tree)
    if reason:
        print('mutate: make test\'s other suites fail before any mutation: %s' % reason, flush=True)
        return False
    print('baseline: make test\'s other suites pass (%.0f s)' % secs, flush=True)
    return True


def stopped(signum, frame):
    """SIGINT and SIGTERM (even where the shell that started the run in
    the background ignores SIGINT) end the run through the finally that
    takes the mutation out of the scratch copy."""
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGINT, stopped)
    signal.signal(signal.SIGTERM, stopped)
    ap = argparse.ArgumentParser()
    ap.add_argument('--lint', action='store_true')
    ap.add_argument('--only', default='')
    ap.add_argument('--check-only', action='store_true')
    ap.add_argument('--keep', default='', help='scratch folder to reuse (made when missing)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--results', default=os.path.join(ROOT, 'build', 'mutate.json'))
    ap.add_argument('--no-baseline', action='store_true')
    a = ap.parse_args()

    entries, errors = read_catalogue()
    errors = lint(entries, errors)
    if errors:
        print('\n'.join(errors), file=sys.stderr)
        print('mutate: %d catalogue errors' % len(errors), file=sys.stderr)
        return 2
    by_folder = {}
    for e in entries:
        by_folder.setdefault(e['file'].split('/')[1], 0)
        by_folder[e['file'].split('/')[1]] += 1
    print('catalogue: %d mutations over %d folders of src/ (%s)' % (
        len(entries), len(by_folder), ', '.join('%s %d' % kv for kv in sorted(by_folder.items()))))
    if a.lint:
        return 0
    if a.only:
        want = set(a.only.split(','))
        entries = [e for e in entries if e['id'] in want]
        if len(entries) != len(want):
            print('mutate: unknown id in --only', file=sys.stderr)
            return 2

    tree = a.keep or tempfile.mkdtemp(prefix='folio-mutate-')
    if not os.path.isdir(os.path.join(tree, 'src')):
        os.makedirs(tree, exist_ok=True)
        print('scratch copy in %s' % tree, flush=True)
        scratch_copy(tree)
    else:
        sync_tree(tree)
    if not os.path.isdir(os.path.join(tree, '.git')):
        # a repository of its own, of one commit: what reads the last
        # commit (make dist's file times) reads the same in each run
        git = ['git', '-c', 'user.name=mutate', '-c', 'user.email=mutate@localhost']
        subprocess.run(git + ['init', '-q'], cwd=tree, check=True)
        subprocess.run(git + ['add', '-A', '.'], cwd=tree, check=True)
        subprocess.run(git + ['commit', '-qm', 'the tree mutated'], cwd=tree, check=True)
    ok, log = build(tree)
    if not ok:
        print(log)
        print('mutate: the unmutated tree does not build')
        return 2
    check = ['unit'] + check_suites()
    rest = [s for s in all_suites() if s not in check]
    rest = [s for s in LONGEST if s in rest] + [s for s in rest if s not in LONGEST]
    if not a.no_baseline:
        reason, secs = run_jobs(tree, check, a.jobs, 600)
        if reason:
            print('mutate: make check fails before any mutation: %s' % reason)
            return 2
        print('baseline: make check passes (%.0f s)' % secs, flush=True)

    results = []
    rest_baseline = None
    for i, e in enumerate(entries, 1):
        original = apply(tree, e)
        r = {'id': e['id'], 'file': e['file'], 'where': e['where']}
        try:
            ok, log = build(tree)
            if not ok:
                r['verdict'] = 'stillborn'
                r['why'] = log.strip().splitlines()[-1] if log.strip() else 'build failed'
            else:
                reason, secs = run_jobs(tree, check, a.jobs, 600)
                r['check_s'] = round(secs, 1)
                if reason:
                    r['verdict'], r['why'] = 'check', reason
                elif a.check_only:
                    r['verdict'] = 'survived-check'
                else:
                    if rest_baseline is None:
                        rest_baseline = a.no_baseline or test_baseline(tree, e, original, rest, a.jobs)
                        if not rest_baseline:
                            return 2
                    reason, secs = run_jobs(tree, rest, a.jobs, 1200)
                    r['test_s'] = round(secs, 1)
                    if reason:
                        # a suite that failed beside another must fail alone too
                        # (a timing suite can fail on a loaded machine)
                        job = reason.split(':')[0]
                        again, _ = run_jobs(tree, [job], 1, 1200)
                        if again:
                            r['verdict'], r['why'] = 'test', again
                        else:
                            r['verdict'], r['why'] = 'survived', 'failed only beside another: ' + reason
                    else:
                        r['verdict'] = 'survived'
        finally:
            restore(tree, e, original)
        print('[%d/%d] %-34s %-15s %s' % (i, len(entries), e['id'], r['verdict'], r.get('why', '')),
              flush=True)
        results.append(r)
    build(tree)

    os.makedirs(os.path.dirname(a.results), exist_ok=True)
    with open(a.results, 'w') as f:
        json.dump(results, f, indent=1)
    report(entries, results, a.check_only)
    if not a.keep:
        shutil.rmtree(tree, ignore_errors=True)
    return 0


def report(entries, results, check_only):
    by_id = {e['id']: e for e in entries}
    live = [r for r in results if r['verdict'] != 'stillborn']
    n = len(live)
    by_check = sum(1 for r in live if r['verdict'] == 'check')
    by_test = by_check + sum(1 for r in live if r['verdict'] == 'test')
    survivors = [r for r in live if r['verdict'] in ('survived', 'survived-check')]
    equiv = [r for r in survivors if by_id[r['id']].get('equivalent')]
    print()
    for r in results:
        if r['verdict'] == 'stillborn':
            print('stillborn (does not compile; fix the catalogue): %s %s' % (r['id'], r['why']))
    print('catalogue: %d mutations, %d built' % (len(results), n))
    if n:
        print('make check kills %d of %d (%.1f%%)' % (by_check, n, 100.0 * by_check / n))
        if not check_only:
            print('make test kills %d of %d (%.1f%%)' % (by_test, n, 100.0 * by_test / n))
            if equiv:
                m = n - len(equiv)
                print('without the %d equivalent mutants: make check %.1f%%, make test %.1f%%'
                      % (len(equiv), 100.0 * by_check / m, 100.0 * by_test / m))
    for r in survivors:
        e = by_id[r['id']]
        print('survivor %s (%s, %s)\n  breaks: %s' % (r['id'], e['file'], e['where'], e['breaks']))
        if e.get('equivalent'):
            print('  equivalent: %s' % e['equivalent'])
        if r.get('why'):
            print('  note: %s' % r['why'])
    late = [r for r in live if r['verdict'] == 'test']
    for r in late:
        print('caught only by make test: %s by %s' % (r['id'], r['why'].split(':')[0]))


if __name__ == '__main__':
    sys.exit(main())
