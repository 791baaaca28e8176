/* stamp.c: stamps of files, of folio and of a site's inputs (stamp.h). */
#include "files/stamp.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/hash.h"
#include "files/reader.h"
#include "base/pool.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* stamp_tree: adds every file below dir (path, size, time, inode) to h;
 * links are followed as output_copy_tree follows them (struct held). */
static void stamp_tree(struct hasher *h, const char *dir, int depth, const struct held *up)
{
	DIR *dh = opendir(dir);
	if (!dh || depth > 32) {
		if (dh)
			closedir(dh);
		return;
	}
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (site_ignored(de->d_name))
			continue; /* and . and .. */
		char p[4096];
		if (snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p)
			continue;
		struct stat sb;
		if (stat(p, &sb) != 0)
			continue;
		hasher_add(h, p, strlen(p) + 1);
		int64_t f[4] = {(int64_t)sb.st_size, (int64_t)sb.st_mtim.tv_sec, (int64_t)sb.st_mtim.tv_nsec,
				(int64_t)sb.st_ino};
		hasher_add(h, f, sizeof f);
		if (S_ISDIR(sb.st_mode) && !held_find(up, &sb, de->d_type == DT_LNK || de->d_type == DT_UNKNOWN)) {
			struct held here = {sb.st_dev, sb.st_ino, p, up, 0};
			stamp_tree(h, p, depth + 1, &here);
		}
	}
	closedir(dh);
}

void stamp_files(struct hasher *h, const char *dir)
{
	struct held *top = held_root(dir);
	if (top)
		stamp_tree(h, dir, 0, top);
	held_free(top);
}

/* build_id: the executable's GNU build ID (the linker's hash of all it
 * linked, -Wl,--build-id), read from the note in its loaded image. */
struct build_id {
	const unsigned char *p;
	size_t len;
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct build_id *id = arg;
	/* the first object is the executable itself */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t left = ph->p_memsz;
		while (left >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
			size_t name = (nh->n_namesz + 3) & ~(size_t)3, desc = (nh->n_descsz + 3) & ~(size_t)3;
			if (sizeof *nh + name + desc > left)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(p + sizeof *nh, "GNU", 4) &&
			    nh->n_descsz >= 8) {
				id->p = p + sizeof *nh + name;
				id->len = nh->n_descsz;
				return 1;
			}
			p += sizeof *nh + name + desc;
			left -= sizeof *nh + name + desc;
		}
	}
	return 1; /* only the executable */
}

/* stamp_binary: a hash that tells folio's own executable from any other
 * build: rendered Markdown kept on disk is only reused by the very folio
 * that rendered it (its grammars, its cmark-gfm, its passes). The build ID
 * where the executable has one, else a hash of the file (19 MB to read).
 * Once per process. */
uint64_t stamp_binary(void)
{
	static uint64_t h;
	if (h)
		return h;
	struct build_id id = {NULL, 0};
	dl_iterate_phdr(find_build_id, &id);
	if (id.p) {
		h = hash_bytes(id.p, id.len);
	} else {
		size_t len;
		char *exe = read_file("/proc/self/exe", &len);
		h = exe ? hash_bytes(exe, len) : (uint64_t)time(NULL); /* unknown: never reused */
		free(exe);
	}
	if (!h)
		h = 1;
	return h;
}

/* A folder's entry as readdir gave it: its name and type. */
struct name {
	char *s;
	unsigned char type;
};

static int cmp_name(const void *x, const void *y)
{
	return strcmp(((const struct name *)x)->s, ((const struct name *)y)->s);
}

/* A walk of the site: the list it appends to, the output folder it leaves
 * out, and the entries of regular files whose stat is still to be made. */
struct walk {
	struct stamp_list *l;
	dev_t odev;
	ino_t oino;
	size_t *later, nlater, cap;
};

/* walk: appends the state of every file below the folder open as fd (which
 * it closes) that a build may read (names starting with '.' aside, as
 * folio skips them) to w's list, in name order, leaving out the output
 * folder; rel is its path below the site ("" at the top). A folder, a
 * link or an entry of unknown type is stat'ed (links followed) at once, to
 * know whether to go into it; a regular file (readdir's type) is stat'ed
 * later, with the others, on threads (stat_later). 0, or -1 when the tree
 * cannot be read whole (then nothing is kept). */
static int walk(struct walk *w, int fd, const char *rel, int depth)
{
	struct stamp_list *l = w->l;
	DIR *dh = depth > 40 || fd < 0 ? NULL : fdopendir(fd);
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return -1; /* unreadable, a loop of links, or a tree too deep to trust */
	}
	struct name *names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *de; (de = readdir(dh));) {
		if (site_ignored(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xrealloc(names, cap * sizeof *names);
		}
		names[n++] = (struct name){xstrndup(de->d_name, strlen(de->d_name)), de->d_type};
	}
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_name);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char sub[PATH_MAX];
		if (rc || snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", names[i].s) >= (int)sizeof sub) {
			rc = -1;
			free(names[i].s);
			continue;
		}
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 256;
			l->e = xrealloc(l->e, l->cap * sizeof *l->e);
		}
		struct stamp_entry *e = &l->e[l->n];
		memset(e, 0, sizeof *e);
		if (names[i].type == DT_REG) {
			if (w->nlater == w->cap) {
				w->cap = w->cap ? w->cap * 2 : 256;
				w->later = xrealloc(w->later, w->cap * sizeof *w->later);
			}
			w->later[w->nlater++] = l->n++;
			e->path = xstrndup(sub, strlen(sub));
			free(names[i].s);
			continue;
		}
		struct stat st;
		int have = fstatat(dirfd(dh), names[i].s, &st, 0) == 0, is_dir = have && S_ISDIR(st.st_mode);
		if (is_dir && st.st_dev == w->odev && st.st_ino == w->oino) {
			free(names[i].s);
			continue; /* the output folder itself */
		}
		l->n++;
		e->path = xstrndup(sub, strlen(sub));
		if (!have) {
			e->sig[6] = 1; /* a dangling link */
		} else if (is_dir) {
			/* a folder is its listing: its own times change with files
			 * folio skips */
			e->sig[0] = (int64_t)st.st_mode;
		} else {
			stamp_sig(&st, e->sig);
		}
		if (is_dir)
			rc = walk(w, openat(dirfd(dh), names[i].s, O_RDONLY | O_DIRECTORY | O_CLOEXEC), sub, depth + 1);
		free(names[i].s);
	}
	free(names);
	closedir(dh);
	return rc;
}

/* One thread's share of the regular files: the entries later[from, to). */
struct later {
	const struct walk *w;
	int root;
	size_t from, to;
};

static void *stat_later(void *arg)
{
	const struct later *t = arg;
	for (size_t i = t->from; i < t->to; i++) {
		struct stamp_entry *e = &t->w->l->e[t->w->later[i]];
		struct stat st;
		if (fstatat(t->root, e->path, &st, 0) == 0)
			stamp_sig(&st, e->sig);
		else
			e->sig[6] = 1; /* gone since it was listed */
	}
	return NULL;
}

void stamp_sig(const struct stat *st, int64_t sig[7])
{
	sig[0] = (int64_t)st->st_mode;
	sig[1] = (int64_t)st->st_size;
	sig[2] = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	sig[3] = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
	sig[4] = (int64_t)st->st_ino;
	sig[5] = (int64_t)st->st_dev;
	sig[6] = 0;
}

int stamp_site(struct stamp_list *l, const char *site_dir, const char *out_dir)
{
	struct stat os;
	if (stat(out_dir, &os) != 0) { /* no output yet: nothing to leave out */
		os.st_dev = 0;
		os.st_ino = 0;
	}
	memset(l, 0, sizeof *l);
	struct walk w = {l, os.st_dev, os.st_ino, NULL, 0, 0};
	int root = open(site_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = root < 0 ? -1 : walk(&w, dup(root), "", 0);
	if (rc == 0 && w.nlater) {
		/* a stat costs microseconds of the kernel's time: a site of
		 * 10,000 posts is stat'ed on the cores there are (up to 4) */
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		int n = w.nlater < 2048 ? 1 : cores > 4 ? 4 : cores > 1 ? (int)cores : 1;
		struct later t[4];
		for (int i = 0; i < n; i++)
			t[i] = (struct later){&w, root, w.nlater * (size_t)i / (size_t)n, w.nlater * (size_t)(i + 1) / (size_t)n};
		pool_run(n, stat_later, t, sizeof *t, 0);
	}
	if (root >= 0)
		close(root);
	free(w.later);
	if (rc)
		stamp_list_free(l);
	return rc;
}

void stamp_hash_list(struct hasher *h, const struct stamp_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		hasher_add(h, l->e[i].path, strlen(l->e[i].path) + 1);
		hasher_add(h, l->e[i].sig, sizeof l->e[i].sig);
	}
}

void stamp_list_free(struct stamp_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].path);
	free(l->e);
	memset(l, 0, sizeof *l);
}

uint64_t stamp_content(const char *site_dir, const char *rel, const int64_t sig[7])
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", site_dir, rel) >= (int)sizeof path)
		return 0;
	int fd = open_regular(path);
	if (fd < 0)
		return 0;
	struct hasher hh, *h = &hh;
	uint64_t out = 0;
	{
		hasher_begin(h, 0);
		char chunk[65536];
		ssize_t got;
		while ((got = read(fd, chunk, sizeof chunk)) > 0)
			hasher_add(h, chunk, (size_t)got);
		struct stat st;
		int64_t now[7];
		/* the bytes read are those of the stamp only if the file is
		 * still as it was walked */
		if (got == 0 && fstat(fd, &st) == 0) {
			stamp_sig(&st, now);
			if (!memcmp(now, sig, sizeof now))
				out = hasher_digest(h);
		}
		
	}
	close(fd);
	return out;
}
