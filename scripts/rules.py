#!/usr/bin/env python3
"""rules.py: the rules of src/README, checked (make check runs it).

Usage: rules.py [--src DIR] [--graph]

Reads every .c, .h and .cpp file below DIR (default: src) and fails, with
one line "FILE:LINE: rule: MESSAGE" per breach and exit status 1, when

  uses      a file includes a header of, or calls a function defined in,
            a folder its own folder may not use (each folder says which
            it may use in its main header's top comment, a line
            "uses: a, b" or "uses: nothing"), or the folders' uses are
            not a list without loops;
  loop      files of different folders call each other in a loop;
  threads   pthread_create appears outside base/pool.c;
  reads     a file is opened or read outside files/ (the site's one
            reader), cache/ (the cache's files), output/ (the output
            folder), serve/ (the files it serves), deploy/s3.c (the
            shared credentials file of S3) and base/'s file primitives;
  writes    a file is created, written, renamed or removed outside
            output/, cache/, base/file.c (the one new-file writer) and
            deploy/ (which writes the deploy target, a folder outside the
            site, and only the files the output's manifest and the record
            of its last deploy name);
  processes a child process is started (fork, exec, posix_spawn, system,
            popen) outside output/folder.c (the background removal of
            an old site) and deploy/run.c (rsync and git, with explicit
            arguments, never a shell);
  cache     a cache file is named outside cache/ (a string literal given
            to a cache_ function, or one that holds ".folio-cache");
  tables    an open-addressing table is written by hand outside base/
            (a probe loop "& (cap - 1)" or "& mask" over slots);
  length    a function is longer than 120 lines, unless the comment above
            it says it is one "state machine" or "dispatch" (a switch
            over kinds), and why.

With --graph it prints the folders, their uses and line counts instead.
Stdlib only: it runs wherever the tests run.
"""
import os
import re
import sys

FILE_EXT = ('.c', '.h', '.cpp')
MAX_LINES = 120

# primitives that open a file to read it (or a folder to list it)
READ_CALLS = {'open', 'openat', 'fopen', 'fdopen', 'opendir', 'fdopendir', 'scandir', 'nftw', 'ftw',
              'read_file', 'read_file_max', 'read_file_arena', 'open_regular', 'fmemopen_file'}
# primitives that change the file system
WRITE_CALLS = {'rename', 'renameat', 'renameat2', 'unlink', 'unlinkat', 'rmdir', 'mkdir', 'mkdirat',
               'link', 'linkat', 'symlink', 'symlinkat', 'truncate', 'ftruncate', 'mkstemp', 'mkdtemp',
               'mkostemp', 'remove', 'creat', 'utimensat', 'futimens', 'chmod', 'fchmod'}
# deploy/s3.c reads the shared credentials file (~/.aws/credentials), not
# a file of the site
READ_OK = ('files/', 'cache/', 'output/', 'serve/', 'base/file.c', 'base/buf.c', 'deploy/s3.c')
# deploy/ writes the deploy target (a folder outside the site), never the
# site, its output or its cache (the record goes through cache/)
WRITE_OK = ('output/', 'cache/', 'base/file.c', 'deploy/')
# calls that start a child process, and the files that may
PROCESS_CALLS = {'fork', 'vfork', 'execl', 'execlp', 'execle', 'execv', 'execvp', 'execvpe', 'execve', 'fexecve',
                 'posix_spawn', 'posix_spawnp', 'system', 'popen', 'clone'}
PROCESS_OK = ('output/folder.c', 'deploy/run.c')
C_KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'else', 'do', 'case',
              '_Alignof', 'alignof', '_Static_assert', '__attribute__', 'typeof', '__typeof__',
              '_Generic', 'va_arg', 'offsetof'}


class Source:
    """One file: its lines with comments and string literals blanked (so
    that a call in a comment is not a call), and its literals by line."""

    def __init__(self, root, rel):
        self.rel = rel
        self.folder = rel.split('/')[0] if '/' in rel else ''
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            self.text = f.read()
        self.code, self.literals = strip(self.text)
        self.lines = self.code.split('\n')
        self.raw_lines = self.text.split('\n')


def strip(text):
    """text with comments and the insides of string and character
    literals replaced by spaces (newlines kept), and the literals as
    (line, text) pairs."""
    out = []
    lits = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            seg = text[i:j]
            out.append(re.sub(r'[^\n]', ' ', seg))
            line += seg.count('\n')
            i = j
        elif c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == '\\':
                    j += 1
                if j < n and text[j] == '\n':
                    break
                j += 1
            seg = text[i + 1:j]
            if c == '"':
                lits.append((line, seg))
            out.append(c + re.sub(r'[^\n]', ' ', seg) + (c if j < n else ''))
            line += seg.count('\n')
            i = j + 1
        else:
            if c == '\n':
                line += 1
            out.append(c)
            i += 1
    return ''.join(out), lits


def load(root):
    files = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(FILE_EXT):
                rel = os.path.relpath(os.path.join(d, name), root)
                files.append(Source(root, rel))
    return files


USES_RE = re.compile(r'^\s*\*?\s*uses:\s*(.*?)\s*$')


def declared_uses(files, errors):
    """folder -> set of folders it may use, from its main header."""
    uses = {}
    where = {}
    for f in files:
        if not f.rel.endswith('.h') or not f.folder:
            continue
        m = re.match(r'\s*/\*(.*?)\*/', f.text, re.S)
        if not m:
            continue
        for k, ln in enumerate(m.group(1).split('\n')):
            u = USES_RE.match(ln)
            if not u:
                continue
            words = [w for w in re.split(r'[,\s]+', u.group(1).rstrip('.')) if w]
            if f.folder in uses:
                errors.append((where[f.folder][0], where[f.folder][1], 'uses',
                               "folder %s says what it uses twice (also in %s)" % (f.folder, f.rel)))
            uses[f.folder] = set() if words == ['nothing'] else set(words)
            where[f.folder] = (f.rel, k + 1)
    folders = sorted({f.folder for f in files if f.folder})
    for d in folders:
        if d not in uses:
            errors.append((d + '/', 0, 'uses',
                           "folder %s does not say which folders it may use (a line 'uses: ...' in the top "
                           "comment of its main header)" % d))
            uses[d] = set()
    for d, u in uses.items():
        for x in sorted(u):
            if x not in folders:
                errors.append((where[d][0], where[d][1], 'uses', "folder %s uses '%s', which is not a folder" % (d, x)))
    # the uses must have no loop
    state = {}

    def visit(d, path):
        state[d] = 1
        for x in sorted(uses.get(d, ())):
            if x not in uses:
                continue
            if state.get(x) == 1:
                cyc = path[path.index(x):] + [x] if x in path else [d, x]
                errors.append((where.get(d, (d + '/', 0))[0], where.get(d, (0, 0))[1], 'uses',
                               'the folders use each other in a loop: ' + ' -> '.join(cyc)))
            elif not state.get(x):
                visit(x, path + [x])
        state[d] = 2

    for d in folders:
        if not state.get(d):
            visit(d, [d])
    return uses


INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
DEF_RE = re.compile(r'^(?!static\b)(?!typedef\b)(?!extern\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')
CALL_RE = re.compile(r'(?<![\w.>])([A-Za-z_]\w*)\s*\(')


LOCAL_RE = re.compile(r'^(?:static\s+)?[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')


def local_names(f):
    """The names of the functions f defines itself, static ones too (a
    call to one of them is a call within f)."""
    names = set()
    for i, ln in enumerate(f.lines):
        m = LOCAL_RE.match(ln)
        if m and not ln.rstrip().endswith(';'):
            names.add(m.group(1))
    return names


def definitions(files):
    """name -> file of every function defined with external linkage."""
    defs = {}
    for f in files:
        if not f.rel.endswith(('.c', '.cpp')):
            continue
        lines = f.lines
        for i, ln in enumerate(lines):
            m = DEF_RE.match(ln)
            if not m or ln.rstrip().endswith(';'):
                continue
            # the body's brace at column 0 before any ';'
            j = i
            while j < len(lines) and j < i + 8:
                if lines[j].startswith('{'):
                    defs.setdefault(m.group(1), f)
                    break
                if ';' in lines[j]:
                    break
                j += 1
    return defs


def calls(f):
    """(line, name) of each call in f's code, definitions left out."""
    out = []
    for i, ln in enumerate(f.lines):
        if ln.lstrip().startswith('#'):
            continue
        for m in CALL_RE.finditer(ln):
            name = m.group(1)
            if name in C_KEYWORDS:
                continue
            if ln.startswith(name) or DEF_RE.match(ln) and not ln.startswith((' ', '\t')):
                # a definition's own name at column 0 (or its return type)
                if DEF_RE.match(ln) and DEF_RE.match(ln).group(1) == name:
                    continue
            out.append((i + 1, name, ln))
    return out


def check(root):
    files = load(root)
    errors = []
    uses = declared_uses(files, errors)
    by_rel = {f.rel: f for f in files}
    defs = definitions(files)

    def allowed(src, dst):
        return src == dst or not src or not dst or dst in uses.get(src, set())

    def uses_line(d):
        u = sorted(uses.get(d, ()))
        return '%s uses: %s' % (d, ', '.join(u) if u else 'nothing')

    edges = {}  # file -> {file: first line}
    told = set()  # (file, folder): a breach of uses already told
    for f in files:
        # includes
        for i, ln in enumerate(f.raw_lines):
            m = INCLUDE_RE.match(ln)
            if not m:
                continue
            inc = m.group(1)
            target = os.path.normpath(os.path.join(os.path.dirname(f.rel), inc))
            if target not in by_rel:
                target = os.path.normpath(inc)
            t = by_rel.get(target)
            if not t:
                continue
            if not allowed(f.folder, t.folder):
                told.add((f.rel, t.folder))
                errors.append((f.rel, i + 1, 'uses', "%s includes %s: %s may not use %s (%s)" %
                               (f.folder, t.rel, f.folder, t.folder, uses_line(f.folder))))
        mine = local_names(f)
        for line, name, text in calls(f):
            if name == 'pthread_create' and f.rel != 'base/pool.c':
                errors.append((f.rel, line, 'threads',
                               'pthread_create outside base/pool.c (start threads with pool_run or pool_spawn)'))
            if name in PROCESS_CALLS and f.rel not in PROCESS_OK:
                errors.append((f.rel, line, 'processes',
                               '%s() starts a process outside output/folder.c and deploy/run.c (deploy_spawn runs '
                               'a program with explicit arguments)' % name))
            # an open to write is the writes rule's (below), in a file that may write
            opens_to_write = name in ('open', 'openat', 'fopen') and f.rel.startswith(WRITE_OK) and re.search(
                r'O_(WRONLY|CREAT)|fopen\s*\([^)]*,\s*"[^"]*[wa]', text[text.find(name):])
            if name in READ_CALLS and not f.rel.startswith(READ_OK) and not opens_to_write:
                errors.append((f.rel, line, 'reads',
                               "%s() opens a file outside the site's reader (files/), cache/, output/ and serve/: "
                               'read a file of the site through files/' % name))
            if name in WRITE_CALLS and not f.rel.startswith(WRITE_OK):
                errors.append((f.rel, line, 'writes',
                               '%s() changes the file system outside output/, cache/, base/file.c and deploy/' % name))
            if name in ('open', 'openat', 'fopen') and not f.rel.startswith(WRITE_OK):
                seg = text[text.find(name):]
                if re.search(r'O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)', seg) or re.search(r'fopen\s*\([^)]*,\s*"[^"]*[wa+]', seg):
                    errors.append((f.rel, line, 'writes',
                                   '%s() opens a file to write outside output/, cache/, base/file.c and deploy/' % name))
            d = defs.get(name)
            if d is None or d is f or name in mine:
                continue
            edges.setdefault(f.rel, {}).setdefault(d.rel, line)
            if not allowed(f.folder, d.folder) and (f.rel, d.folder) not in told:
                told.add((f.rel, d.folder))
                errors.append((f.rel, line, 'uses', "%s calls %s() of %s: %s may not use %s (%s)" %
                               (f.folder, name, d.rel, f.folder, d.folder, uses_line(f.folder))))
        # cache names
        if not f.rel.startswith('cache/'):
            for m in re.finditer(r'\b(cache_\w+)\s*\(([^;]*)', f.text):
                args = m.group(2)
                lit = re.search(r'"([^"]*)"', args)
                if lit and not args.lstrip().startswith('"'):
                    line = f.text.count('\n', 0, m.start()) + 1
                    errors.append((f.rel, line, 'cache', '%s() is given the cache file name "%s": name cache files '
                                   "through cache/'s catalogue" % (m.group(1), lit.group(1))))
            for line, lit in f.literals:
                if '.folio-cache' in lit:
                    errors.append((f.rel, line, 'cache', 'the cache folder named outside cache/ ("%s")' % lit))
        # hand-made tables
        if not f.rel.startswith('base/'):
            for i, ln in enumerate(f.lines):
                if re.search(r'&\s*\(\s*[\w>.-]*(cap|bucket|slots)\w*\s*-\s*1\s*\)|\+\s*1\s*\)\s*&\s*mask\b', ln):
                    errors.append((f.rel, i + 1, 'tables', 'a hash table probed by hand: use base/map.h or '
                                   'base/index.h'))
    # functions over 120 lines
    for f in files:
        if not f.rel.endswith(('.c', '.cpp')):
            continue
        start = None
        for i, ln in enumerate(f.lines):
            if start is None and ln.startswith('{') and i > 0:
                start = i
                # the function's first line: back to the line with its name
                j = i - 1
                while j > 0 and not re.match(r'^[A-Za-z_]', f.lines[j]):
                    j -= 1
                head = j
            elif start is not None and ln.startswith('}'):
                n = i - head + 1
                if n > MAX_LINES:
                    above = '\n'.join(f.raw_lines[max(0, head - 12):head])
                    if not re.search(r'state machine|dispatch', above):
                        m = re.search(r'(\w+)\s*\(', f.lines[head])
                        name = m.group(1) if m else '?'
                        errors.append((f.rel, head + 1, 'length', '%s() is %d lines (at most %d, but for one state '
                                       'machine or dispatch switch, said in the comment above it)' %
                                       (name, n, MAX_LINES)))
                start = None
    # loops of calls between files of different folders
    index = {}
    low = {}
    stack = []
    on = set()
    sccs = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    for comp in sccs:
        folders = {c.split('/')[0] for c in comp}
        if len(folders) > 1:
            a = comp[0]
            b = next(c for c in comp if c.split('/')[0] != a.split('/')[0])
            line = edges.get(a, {}).get(b) or min(edges.get(a, {b: 0}).values())
            errors.append((a, line, 'loop', 'files of different folders call each other in a loop: ' +
                           ', '.join(comp)))
    return files, uses, errors


def graph(files, uses):
    lines = {}
    for f in files:
        lines[f.folder] = lines.get(f.folder, 0) + f.text.count('\n')
    for d in sorted(lines):
        print('%-12s %6d lines  uses: %s' % (d + '/', lines[d], ', '.join(sorted(uses.get(d, ()))) or 'nothing'))


def main(argv):
    root = 'src'
    show = False
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '--src' and args:
            root = args.pop(0)
        elif a == '--graph':
            show = True
        else:
            print('usage: rules.py [--src DIR] [--graph]', file=sys.stderr)
            return 2
    files, uses, errors = check(root)
    if show:
        graph(files, uses)
        return 0
    seen = set()
    for rel, line, rule, msg in sorted(errors, key=lambda e: (e[0], e[1], e[2])):
        key = (rel, line, rule, msg)
        if key in seen:
            continue
        seen.add(key)
        print('%s:%d: %s: %s' % (os.path.join(root, rel), line, rule, msg))
    if errors:
        print('rules: %d breaches of src/README\'s rules' % len(seen), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
