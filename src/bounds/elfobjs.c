/* elfobjs.c: a module's data objects from its ELF file (see elfobjs.h).
 * Reads the file with pread() (no stdio, no libelf; not mapped: a file
 * cut short meanwhile would raise SIGBUS in the program), the symbol table
 * in chunks straight into kept memory; sorts and merges in place; leaves
 * the names in the file until a report asks (a process touches the pages
 * of the objects it keeps, not of the string table).  Allocates: never in a signal
 * handler.  rwc_gobj_find is pure and async-signal-safe. */
#include "config.h"

#include "bounds/elfobjs.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ownmem.h"
#include "base/fileio.h"
#include "base/real.h"
#include "bounds/objcache.h"
#include "frames/sitefmt.h"
#include "frames/keepout.h"
#include "mapview/mapview.h"
#include "mapview/ownheap.h"
#include "mapview/tcache.h"

#define MAX_TABLE ((size_t)256 << 20) /* a symbol or string table larger: not read */
#define CHUNK 2048                    /* symbols read at a time */


/* [p, p+n) readable, asked without changing the thread's cache of good
 * ranges (tcache.h): the program's buffers stay in it. */
static int readable(uintptr_t p, size_t n)
{
	struct rwc_tcache keep[RWC_TCACHE_N];
	unsigned next = rwc_tcache_next;
	struct rwc_verdict v;
	int ok;

	memcpy(keep, rwc_tcache, sizeof keep);
	ok = rwc_map_verdict(p, n, RWC_NEED_READ, &v) == RWC_OK;
	for (int i = 0; i < RWC_TCACHE_N; i++) {
		rwc_tcache[i].gen = 0; /* invalid while restored: a signal handler may look */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rwc_tcache[i].lo = keep[i].lo;
		rwc_tcache[i].hi = keep[i].hi;
		rwc_tcache[i].ok = keep[i].ok;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rwc_tcache[i].gen = keep[i].gen;
	}
	rwc_tcache_next = next;
	return ok;
}

/* The file's ELF header and program headers are those mapped at START
 * (loads are serialized: the buffer is static, off the thread's stack). */
static int same_image(int fd, const ElfW(Ehdr) *eh, uintptr_t start)
{
	size_t phsz = (size_t)eh->e_phnum * sizeof(ElfW(Phdr));
	static char ph[64 * sizeof(ElfW(Phdr))];

	if (eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phnum > 64 || eh->e_phoff > 4096 ||
	    rwc_pread_all(fd, ph, phsz, eh->e_phoff) != 0 || !readable(start, eh->e_phoff + phsz))
		return 0;
	return memcmp((const void *)start, eh, sizeof *eh) == 0 &&
	       memcmp((const void *)(start + eh->e_phoff), ph, phsz) == 0;
}

/* The symbol table to use: .symtab, else .dynsym; its index or -1. */
static long pick_table(const ElfW(Shdr) *sh, size_t nsh)
{
	long dyn = -1;

	for (size_t i = 0; i < nsh; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			return (long)i;
		if (sh[i].sh_type == SHT_DYNSYM)
			dyn = (long)i;
	}
	return dyn;
}

/* A data object with a size, in an allocated section that is neither
 * TLS nor code. */
static int wanted(const ElfW(Sym) *s, const ElfW(Shdr) *sh, size_t nsh)
{
	const ElfW(Shdr) *sec;

	if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT || s->st_size == 0 || s->st_shndx == SHN_UNDEF ||
	    s->st_shndx >= nsh)
		return 0;
	sec = &sh[s->st_shndx];
	return (sec->sh_flags & SHF_ALLOC) && !(sec->sh_flags & (SHF_TLS | SHF_EXECINSTR));
}

struct tables {
	int fd;
	struct stat st; /* fstat of fd */
	uintptr_t bias, start, end;
	ElfW(Shdr) *sh;
	size_t nsh;
	size_t strsz; /* of the string table */
};

/* Reads the symbol table SYM in chunks of CHUNK symbols into BUF and
 * counts its wanted symbols; with OBJ, also writes the first CAP of them
 * there, each name as its offset in the string table (tagged, gobjs.h).
 * Returns the count, or SIZE_MAX when a read fails. */
static size_t scan(const struct tables *t, const ElfW(Shdr) *sym, ElfW(Sym) *buf, struct rwc_gobj *obj, size_t cap)
{
	size_t nsym = sym->sh_size / sizeof(ElfW(Sym)), k = 0;

	for (size_t i = 0; i < nsym; i += CHUNK) {
		size_t m = nsym - i < CHUNK ? nsym - i : CHUNK;

		if (rwc_pread_all(t->fd, buf, m * sizeof *buf, sym->sh_offset + i * sizeof *buf) != 0)
			return SIZE_MAX;
		for (size_t j = 0; j < m; j++) {
			const ElfW(Sym) *s = &buf[j];
			uintptr_t lo = t->bias + s->st_value;

			if (!wanted(s, t->sh, t->nsh) || lo < t->start || s->st_size > t->end - lo ||
			    s->st_name >= t->strsz)
				continue;
			if (obj && k < cap)
				obj[k] = (struct rwc_gobj){lo, lo + s->st_size, (const char *)(RWC_GOBJ_OFFSET | s->st_name)};
			k++;
		}
	}
	return k;
}

/* The symbol table's objects, given the section headers in T: read in
 * chunks straight into kept memory (room for every symbol where the part
 * for globals has it, then trimmed; else a count first and exactly that
 * room), sorted and merged there.  Their names stay in the file (NM says
 * where) until a report asks for one (rwc_elf_name). */
static size_t from_tables(struct tables *t, struct rwc_gobj **out, struct rwc_elf_names *nm)
{
	long si = pick_table(t->sh, t->nsh);
	const ElfW(Shdr) *sym, *str;
	struct rwc_gobj *o = NULL;
	ElfW(Sym) *buf;
	size_t n = 0, k, room, nsym;
	const struct stat *st = &t->st;

	if (si < 0 || t->sh[si].sh_link >= t->nsh)
		return 0;
	sym = &t->sh[si];
	str = &t->sh[sym->sh_link];
	if (sym->sh_size > MAX_TABLE || str->sh_size > MAX_TABLE || str->sh_type != SHT_STRTAB)
		return 0;
	t->strsz = str->sh_size;
	nsym = sym->sh_size / sizeof(ElfW(Sym));
	nm->off = str->sh_offset, nm->size = str->sh_size;
	nm->dev = st->st_dev, nm->ino = st->st_ino, nm->fsize = (uint64_t)st->st_size;
	nm->mtime_s = st->st_mtim.tv_sec, nm->mtime_ns = st->st_mtim.tv_nsec;
	if (!(buf = rwc_elf_take(CHUNK * sizeof *buf)))
		return 0;
	if (rwc_elf_fits(nsym * sizeof *o)) { /* one pass: room for every symbol, trimmed */
		o = rwc_elf_keep(nsym * sizeof *o);
		k = o ? scan(t, sym, buf, o, nsym) : 0;
		room = nsym;
	} else { /* a count first, then exactly that room */
		k = room = scan(t, sym, buf, NULL, 0);
		if (k && k != SIZE_MAX && (o = rwc_elf_keep(k * sizeof *o)) && scan(t, sym, buf, o, k) != k)
			k = SIZE_MAX;
	}
	if (o && k && k != SIZE_MAX) {
		n = rwc_gobj_sort_merge(o, k);
		*out = o;
	}
	if (o)
		rwc_elf_keep_trim(o, room * sizeof *o, n * sizeof *o);
	rwc_elf_give(buf);
	return n;
}

/* The file open at FD by its absolute name (a module dlopen()ed by a
 * relative one is still found after a chdir), in kept memory; PATH when
 * it is absolute already, or the name is not known (and /proc/self/exe
 * as it is: the running program's file, deleted or rebuilt since or not). */
static const char *file_of(int fd, const char *path)
{
	static char link[32], abs[4096]; /* (under the load lock) */
	ssize_t len;
	char *p;

	if (path[0] == '/')
		return path; /* (/proc/self/exe: the running program, even deleted or rebuilt since) */
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	len = REAL(readlink)(link, abs, sizeof abs);
	if (len <= 0 || (size_t)len >= sizeof abs || abs[0] != '/')
		return path;
	if (!(p = rwc_elf_keep((size_t)len + 1)))
		return path;
	memcpy(p, abs, (size_t)len);
	p[len] = '\0';
	return p;
}

/* The last block kept for the object cache's file (objcache.h), to give
 * back when the file does not check. */
static struct {
	void *p;
	size_t n;
} cache_keep;

static void *keep_for_cache(size_t n)
{
	cache_keep.p = rwc_elf_keep(n);
	cache_keep.n = n;
	return cache_keep.p;
}

/* The module's objects from the object cache (objcache.h), its file F,
 * NM's string table and file told; 0 when not there (*STALE: a file in
 * its place to replace). */
static size_t from_cache(const struct tables *t, const char *id, const struct rwc_oc_ident *f,
			 struct rwc_gobj **out, struct rwc_elf_names *nm, int *stale)
{
	size_t n;

	cache_keep.p = NULL;
	n = rwc_objcache_get(id, f, t->bias, t->start, t->end, keep_for_cache, out, &nm->off, &nm->size, stale);
	if (cache_keep.p)
		rwc_elf_keep_trim(cache_keep.p, cache_keep.n, n ? RWC_OC_HEAD + n * RWC_OC_REC : 0);
	if (!n)
		return 0;
	nm->dev = f->dev, nm->ino = f->ino, nm->fsize = f->size;
	nm->mtime_s = (int64_t)f->mtime_s, nm->mtime_ns = (int64_t)f->mtime_ns;
	return n;
}

/* The objects of the file at T->fd whose ELF header is EH, the same image
 * as the one at T->start: from the object cache where it has the
 * module's build-id and this file, else from the symbol table (then into
 * the cache). */
static size_t from_file(struct tables *t, const ElfW(Ehdr) *eh, struct rwc_gobj **out, struct rwc_elf_names *nm)
{
	const struct stat *st = &t->st;
	struct rwc_oc_ident f = {0};
	char id[132];
	size_t n = 0;
	int stale = 0;

	/* (the program headers in memory: same_image found them readable) */
	if (!rwc_sf_build_id((const ElfW(Phdr) *)(t->start + eh->e_phoff), eh->e_phnum, t->bias, id, sizeof id))
		id[0] = '\0';
	else
		f = (struct rwc_oc_ident){(uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size,
					  (uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec};
	if (id[0] && (n = from_cache(t, id, &f, out, nm, &stale)))
		return n;
	t->nsh = eh->e_shnum;
	t->sh = rwc_elf_take(t->nsh * sizeof *t->sh);
	if (t->sh && rwc_pread_all(t->fd, t->sh, t->nsh * sizeof *t->sh, eh->e_shoff) == 0)
		n = from_tables(t, out, nm);
	rwc_elf_give(t->sh);
	if (n && id[0])
		rwc_objcache_put(id, &f, t->bias, *out, n, nm->off, nm->size, stale, rwc_elf_take, rwc_elf_give);
	return n;
}

size_t rwc_elf_objects(const char *path, uintptr_t bias, uintptr_t start, uintptr_t end,
		       struct rwc_gobj **out, struct rwc_elf_names *nm)
{
	struct tables t = {.bias = bias, .start = start, .end = end};
	ElfW(Ehdr) eh;
	size_t n = 0;

	*out = NULL;
	*nm = (struct rwc_elf_names){.file = NULL};
	if ((t.fd = rwc_open_spare(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0)) < 0) /* (a FIFO put there) */
		return 0;
	if (fstat(t.fd, &t.st) == 0 && rwc_pread_all(t.fd, &eh, sizeof eh, 0) == 0 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_shentsize == sizeof(ElfW(Shdr)) && eh.e_shnum > 0 && same_image(t.fd, &eh, start))
		n = from_file(&t, &eh, out, nm);
	if (n)
		nm->file = file_of(t.fd, path);
	close(t.fd);
	return n;
}

const char *rwc_elf_name(const struct rwc_elf_names *nm, const char *name, int *again)
{
	uintptr_t off = (uintptr_t)name & ~RWC_GOBJ_OFFSET;
	static char buf[4096]; /* (under the report lock) */
	size_t want, len;
	struct stat st;
	ssize_t got;
	char *p = NULL;
	int fd;

	*again = 0;
	if (!((uintptr_t)name & RWC_GOBJ_OFFSET))
		return name;
	if (!nm->file || off >= nm->size)
		return NULL;
	if ((fd = open(nm->file, O_RDONLY | O_CLOEXEC)) < 0) {
		*again = errno != ENOENT && errno != ENOTDIR; /* (EMFILE, EINTR...: may pass) */
		return NULL;
	}
	want = nm->size - off < sizeof buf ? (size_t)(nm->size - off) : sizeof buf;
	if (fstat(fd, &st) != 0) {
		*again = 1;
	} else if (st.st_dev == nm->dev && st.st_ino == nm->ino && (uint64_t)st.st_size == nm->fsize &&
		   st.st_mtim.tv_sec == nm->mtime_s && st.st_mtim.tv_nsec == nm->mtime_ns) {
		got = REAL(pread)(fd, buf, want, (off_t)(nm->off + off));
		if (got < 0)
			*again = 1;
		for (len = 0; got > 0 && len < (size_t)got && buf[len]; len++) /* (strnlen, without its first lazy binding) */
			;
		if (got > 0 && len < (size_t)got && (p = rwc_elf_from_part(len + 1, 1)))
			memcpy(p, buf, len + 1);
	}
	close(fd);
	return p;
}
