/* elfobjs.c: a module's data objects from its ELF file (see elfobjs.h).
 * Reads the file with pread() into the library's own memory (no stdio,
 * no libelf); sorts and merges in place.  Allocates: never in a signal
 * handler.  rwc_gobj_find is pure and async-signal-safe. */
#include "config.h"

#include "bounds/elfobjs.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "base/ownmem.h"
#include "base/real.h"
#include "frames/keepout.h"
#include "mapview/mapview.h"
#include "mapview/ownheap.h"
#include "mapview/tcache.h"

#define MAX_TABLE ((size_t)256 << 20) /* a symbol or string table larger: not read */
#define CHUNK 2048                    /* symbols read at a time */

/* The real pread: the library's own reads neither pass the checks nor
 * displace the program's buffers from the thread's cache of good ranges. */
static int rd(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = REAL(pread)(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* A load's memory: the part of own memory for globals (ownmem.h), kept
 * blocks from its bottom up, scratch from its top down (all given back
 * by rwc_elf_load_end); past it, the own heap, whose new mappings must
 * not land in the program's holes: then the load holds them (keepout.h). */
static struct {
	size_t kept, scratch; /* bytes of the part in use at each end */
	int kept_out;         /* this load holds the program's holes */
} A;

static void *alloc(size_t n, int keep)
{
	char *part = rwc_ownmem_part(RWC_OWN_GLOBALS);

	n = (n + 15) & ~(size_t)15;
	if (!n)
		return NULL;
	if (part && n <= RWC_OWN_GLOBALS_SIZE - A.kept - A.scratch) {
		if (keep) {
			A.kept += n;
			return part + A.kept - n;
		}
		A.scratch += n;
		return part + RWC_OWN_GLOBALS_SIZE - A.scratch;
	}
	if (!A.kept_out) {
		rwc_keepout_begin();
		A.kept_out = 1;
	}
	return rwc_ownheap_alloc(n, 16);
}

static void *take(size_t n)
{
	return alloc(n, 0);
}

/* Scratch of the part is given back all at once, at the end of the load. */
static void give(void *p)
{
	char *part = rwc_ownmem_part(RWC_OWN_GLOBALS);

	if (p && !(part && (char *)p >= part && (char *)p < part + RWC_OWN_GLOBALS_SIZE))
		rwc_ownheap_free(p);
}

void *rwc_elf_keep(size_t n)
{
	return alloc(n, 1);
}

void rwc_elf_load_end(void)
{
	A.scratch = 0;
	if (A.kept_out)
		rwc_keepout_end();
	A.kept_out = 0;
}

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
	    rd(fd, ph, phsz, eh->e_phoff) != 0 || !readable(start, eh->e_phoff + phsz))
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
	uintptr_t bias, start, end;
	ElfW(Shdr) *sh;
	size_t nsh;
	char *str; /* the string table */
	size_t strsz;
};

/* Collects the wanted symbols of table SYM into OBJ (room for all of
 * them), each name as its offset in the string table.  Returns the count. */
static size_t collect(const struct tables *t, const ElfW(Shdr) *sym, struct rwc_gobj *obj)
{
	size_t nsym = sym->sh_size / sizeof(ElfW(Sym)), k = 0;
	ElfW(Sym) *buf = take(CHUNK * sizeof(ElfW(Sym)));

	if (!buf)
		return 0;
	for (size_t i = 0; i < nsym; i += CHUNK) {
		size_t m = nsym - i < CHUNK ? nsym - i : CHUNK;

		if (rd(t->fd, buf, m * sizeof *buf, sym->sh_offset + i * sizeof *buf) != 0) {
			k = 0;
			break;
		}
		for (size_t j = 0; j < m; j++) {
			const ElfW(Sym) *s = &buf[j];
			uintptr_t lo = t->bias + s->st_value;

			if (!wanted(s, t->sh, t->nsh) || lo < t->start || s->st_size > t->end - lo ||
			    s->st_name >= t->strsz)
				continue;
			obj[k].lo = lo;
			obj[k].hi = lo + s->st_size;
			obj[k].name = (const char *)(uintptr_t)s->st_name;
			k++;
		}
	}
	give(buf);
	return k;
}

/* Before: lower start, then the larger object. */
static int before(const struct rwc_gobj *a, const struct rwc_gobj *b)
{
	return a->lo < b->lo || (a->lo == b->lo && a->hi > b->hi);
}

static void sift(struct rwc_gobj *o, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		struct rwc_gobj t;

		if (c + 1 < n && before(&o[c], &o[c + 1]))
			c++;
		if (!before(&o[i], &o[c]))
			return;
		t = o[i], o[i] = o[c], o[c] = t;
	}
}

/* Heapsort (allocates nothing), then merge: an object inside the one
 * before it (an alias) goes; one that overlaps it widens it. */
static size_t sort_merge(struct rwc_gobj *o, size_t n)
{
	size_t k = 0;

	for (size_t i = n / 2; i-- > 0;)
		sift(o, i, n);
	for (size_t i = n; i-- > 1;) {
		struct rwc_gobj t = o[0];

		o[0] = o[i], o[i] = t;
		sift(o, 0, i);
	}
	for (size_t i = 0; i < n; i++) {
		if (k && o[i].lo < o[k - 1].hi) {
			if (o[i].hi > o[k - 1].hi)
				o[k - 1].hi = o[i].hi;
			continue;
		}
		o[k++] = o[i];
	}
	return k;
}

/* The kept objects, compact, with their names after them. */
static size_t finish(const struct tables *t, struct rwc_gobj *o, size_t n, struct rwc_gobj **out)
{
	size_t names = 0;
	struct rwc_gobj *res;
	char *p;

	for (size_t i = 0; i < n; i++)
		names += strnlen(t->str + (uintptr_t)o[i].name, t->strsz - (uintptr_t)o[i].name) + 1;
	if (!(res = rwc_elf_keep(n * sizeof *res + names)))
		return 0;
	p = (char *)(res + n);
	for (size_t i = 0; i < n; i++) {
		const char *s = t->str + (uintptr_t)o[i].name;
		size_t len = strnlen(s, t->strsz - (uintptr_t)o[i].name);

		res[i] = o[i];
		memcpy(p, s, len);
		p[len] = '\0';
		res[i].name = p;
		p += len + 1;
	}
	*out = res;
	return n;
}

/* The symbol table's objects, given the section headers in T. */
static size_t from_tables(struct tables *t, struct rwc_gobj **out)
{
	long si = pick_table(t->sh, t->nsh);
	const ElfW(Shdr) *sym, *str;
	struct rwc_gobj *o;
	size_t n = 0;

	if (si < 0 || t->sh[si].sh_link >= t->nsh)
		return 0;
	sym = &t->sh[si];
	str = &t->sh[sym->sh_link];
	if (sym->sh_size > MAX_TABLE || str->sh_size > MAX_TABLE || str->sh_type != SHT_STRTAB)
		return 0;
	t->strsz = str->sh_size;
	t->str = take(t->strsz);
	o = take(sym->sh_size / sizeof(ElfW(Sym)) * sizeof *o);
	if (t->str && o && rd(t->fd, t->str, t->strsz, str->sh_offset) == 0 &&
	    (n = collect(t, sym, o)) > 0)
		n = finish(t, o, sort_merge(o, n), out);
	give(t->str);
	give(o);
	return n;
}

size_t rwc_elf_objects(const char *path, uintptr_t bias, uintptr_t start, uintptr_t end,
		       struct rwc_gobj **out)
{
	struct tables t = {.bias = bias, .start = start, .end = end};
	ElfW(Ehdr) eh;
	size_t n = 0;

	*out = NULL;
	if ((t.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (rd(t.fd, &eh, sizeof eh, 0) == 0 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_shentsize == sizeof(ElfW(Shdr)) && eh.e_shnum > 0 && same_image(t.fd, &eh, start)) {
		t.nsh = eh.e_shnum;
		t.sh = take(t.nsh * sizeof *t.sh);
		if (t.sh && rd(t.fd, t.sh, t.nsh * sizeof *t.sh, eh.e_shoff) == 0)
			n = from_tables(&t, out);
		give(t.sh);
	}
	close(t.fd);
	return n;
}

long rwc_gobj_find(const struct rwc_gobj *obj, size_t n, uintptr_t a, uintptr_t start,
		   uintptr_t end, uintptr_t *gap_lo, uintptr_t *gap_hi)
{
	size_t lo = 0, hi = n; /* the first object starting above A: obj[hi] */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (hi > 0 && a < obj[hi - 1].hi)
		return (long)(hi - 1);
	*gap_lo = hi > 0 ? obj[hi - 1].hi : start;
	*gap_hi = hi < n ? obj[hi].lo : end;
	return -1;
}
