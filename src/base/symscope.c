/* symscope.c: the loader's symbol rules over the loaded modules (see
 * symscope.h).  Reads each module's dynamic symbol, hash and version
 * tables in place; no allocation, no lock (the module list is walked as
 * the loader left it: call it where no dlopen/dlclose can run meanwhile,
 * or accept an answer from just before one). */
#include "config.h"

#include "base/symscope.h"
#include "base/common.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <string.h>

/* A dynamic-section address: relocated in place by the loader on most
 * targets, left as a link-time offset where .dynamic is read-only. */
static const void *dyn_ptr(const struct link_map *m, ElfW(Addr) v)
{
	return (const void *)(v < m->l_addr ? v + m->l_addr : v);
}

struct dyn {
	const ElfW(Sym) *symtab;
	const ElfW(Half) *versym;
	const ElfW(Verdef) *verdef;
	const char *strtab;
	const uint32_t *gnu_hash;
	const ElfW(Word) *hash;
};

static int read_dyn(const struct link_map *m, struct dyn *t)
{
	memset(t, 0, sizeof *t);
	if (!m->l_ld)
		return 0;
	for (const ElfW(Dyn) *d = m->l_ld; d->d_tag != DT_NULL; d++) {
		const void *p = dyn_ptr(m, d->d_un.d_ptr);

		switch (d->d_tag) {
		case DT_SYMTAB: t->symtab = p; break;
		case DT_VERSYM: t->versym = p; break;
		case DT_VERDEF: t->verdef = p; break;
		case DT_STRTAB: t->strtab = p; break;
		case DT_GNU_HASH: t->gnu_hash = p; break;
		case DT_HASH: t->hash = p; break;
		default: break;
		}
	}
	return t->symtab && t->strtab && (t->gnu_hash || t->hash);
}

/* The name of version index NDX in T's definitions, or NULL. */
static const char *ver_name(const struct dyn *t, ElfW(Half) ndx)
{
	const ElfW(Verdef) *vd = t->verdef;

	for (; vd; vd = vd->vd_next ? (const ElfW(Verdef) *)((const char *)vd + vd->vd_next) : NULL)
		if (vd->vd_ndx == ndx && vd->vd_cnt > 0)
			return t->strtab + ((const ElfW(Verdaux) *)((const char *)vd + vd->vd_aux))->vda_name;
	return NULL;
}

/* strcmp(a, b) == 0, here: the constructor binds through this file, and
 * libc's strcmp would be one more page of libc a process start touches. */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Does symbol I define NAME for a reference of version VER?  (Without
 * VER: only a default or unversioned definition.) */
static int accepts(const struct dyn *t, uint32_t i, const char *name, const char *ver)
{
	const ElfW(Sym) *s = &t->symtab[i];
	ElfW(Half) v;
	const char *vn;

	if (s->st_shndx == SHN_UNDEF || s->st_value == 0 || !same(t->strtab + s->st_name, name))
		return 0;
	if (!t->versym || (v = t->versym[i] & 0x7fff) <= 1)
		return 1; /* unversioned: any reference takes it */
	if (!ver)
		return !(t->versym[i] & 0x8000);
	return (vn = ver_name(t, v)) && same(vn, ver);
}

static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = h * 33 + *c;
	return h;
}

static uint32_t sysv_hash(const char *name)
{
	uint32_t h = 0, g;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		h = (h << 4) + *c;
		g = h & 0xf0000000u;
		h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* The index of T's symbol that defines NAME for VER; 0 when none. */
static uint32_t find(const struct dyn *t, const char *name, const char *ver)
{
	if (t->gnu_hash) {
		const uint32_t nb = t->gnu_hash[0], off = t->gnu_hash[1];
		const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(t->gnu_hash + 4) + t->gnu_hash[2]);
		const uint32_t *chain = buckets + nb, h = gnu_hash(name);
		const ElfW(Addr) *bloom = (const ElfW(Addr) *)(t->gnu_hash + 4);
		const unsigned bits = 8 * sizeof *bloom;
		ElfW(Addr) word, want;
		uint32_t i;

		/* the bloom filter first: most modules do not define the name,
		 * and their buckets and chains are then not read */
		if (!nb || !t->gnu_hash[2])
			return 0;
		word = bloom[(h / bits) & (t->gnu_hash[2] - 1)];
		want = ((ElfW(Addr))1 << (h % bits)) | ((ElfW(Addr))1 << ((h >> t->gnu_hash[3]) % bits));
		if ((word & want) != want || (i = buckets[h % nb]) < off)
			return 0;
		for (;; i++) {
			if ((chain[i - off] | 1) == (h | 1) && accepts(t, i, name, ver))
				return i;
			if (chain[i - off] & 1)
				return 0;
		}
	}
	const ElfW(Word) nb = t->hash[0], *buckets = t->hash + 2, *chain = buckets + nb;
	for (ElfW(Word) i = nb ? buckets[sysv_hash(name) % nb] : 0; i; i = chain[i])
		if (accepts(t, i, name, ver))
			return i;
	return 0;
}

const struct link_map *rwc_module_of(const void *p)
{
	struct link_map *m = NULL;
	Dl_info info;
#ifdef DLFO_STRUCT_HAS_EH_DBASE /* glibc 2.35+ */
	struct dl_find_object d;

	/* before the loader set it up (a malloc from inside the loader's
	 * start), it finds nothing: then dladdr1 */
	if (_dl_find_object((void *)p, &d) == 0 && d.dlfo_link_map)
		return d.dlfo_link_map;
#endif
	return dladdr1(p, &info, (void **)&m, RTLD_DL_LINKMAP) ? m : NULL;
}

/* The module of P, asked once and kept in *KEPT (a module never
 * unloaded: this library's, libc's). */
static const struct link_map *kept_module(const struct link_map **kept, const void *p)
{
	const struct link_map *m = __atomic_load_n(kept, __ATOMIC_ACQUIRE);

	if (!m && (m = rwc_module_of(p)))
		__atomic_store_n(kept, m, __ATOMIC_RELEASE);
	return m;
}

static const struct link_map *self_map RWC_START_DATA, *libc_map RWC_START_DATA;

const struct link_map *rwc_sym_self(void)
{
	return kept_module(&self_map, (const void *)&rwc_sym_self);
}

/* The tables of the modules never unloaded that every lookup reads (the
 * program's, the first; this library's; libc's), read once: state 0
 * none, 1 being written, 2 ready. */
static struct {
	const struct link_map *m;
	int state;
	struct dyn t;
} kept_dyn[3] RWC_START_DATA;

/* M's tables: kept, else read into *LOCAL (and kept when M is one of
 * those three); NULL when M has none usable. */
static const struct dyn *dyn_of(const struct link_map *m, struct dyn *local)
{
	unsigned k;

	for (k = 0; k < 3; k++)
		if (__atomic_load_n(&kept_dyn[k].state, __ATOMIC_ACQUIRE) == 2 && kept_dyn[k].m == m)
			return &kept_dyn[k].t;
	if (!read_dyn(m, local))
		return NULL;
	/* the program: the first module, named "" (in a dlmopen namespace
	 * the first is a library, which dlclose may unload) */
	if (!m->l_prev && m->l_name && !m->l_name[0])
		k = 0;
	else if (m == __atomic_load_n(&self_map, __ATOMIC_ACQUIRE))
		k = 1;
	else if (m == __atomic_load_n(&libc_map, __ATOMIC_ACQUIRE))
		k = 2;
	if (k < 3) {
		int free_state = 0;

		if (__atomic_compare_exchange_n(&kept_dyn[k].state, &free_state, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			kept_dyn[k].m = m;
			kept_dyn[k].t = *local;
			__atomic_store_n(&kept_dyn[k].state, 2, __ATOMIC_RELEASE);
		}
	}
	return local;
}

const struct link_map *rwc_sym_first(const char *name, const char *ver, const struct link_map *after,
				     void **addr)
{
	const struct link_map *m = after ? after->l_next : rwc_sym_self();
	struct dyn local;
	const struct dyn *t;
	uint32_t i;

	if (!after)
		while (m && m->l_prev)
			m = m->l_prev;
	for (; m; m = m->l_next) {
		if (!(t = dyn_of(m, &local)) || !(i = find(t, name, ver)))
			continue;
		if ((t->symtab[i].st_info & 0xf) == STT_GNU_IFUNC)
			return NULL; /* its address needs its resolver: not ours to run */
		*addr = (void *)(m->l_addr + t->symtab[i].st_value);
		return m;
	}
	return NULL;
}

const struct link_map *rwc_sym_libc(void)
{
	return kept_module(&libc_map, (const void *)&gnu_get_libc_version);
}

int rwc_sym_upto_libc(const struct link_map *m)
{
	const struct link_map *libc = rwc_sym_libc(), *x;

	if (!libc)
		return 0;
	for (x = rwc_sym_self(); x && x != m; x = x->l_next)
		if (x == libc)
			return 0; /* libc first: M is after it */
	for (; x && x != libc; x = x->l_next)
		;
	return x == libc; /* (libc before this library: no) */
}

const char *rwc_libc_symver(const char *name)
{
	const struct link_map *m = rwc_sym_libc();
	struct dyn local;
	const struct dyn *t;
	uint32_t i;

	if (!m || !(t = dyn_of(m, &local)) || !t->versym || !(i = find(t, name, NULL)))
		return NULL;
	return ver_name(t, t->versym[i] & 0x7fff);
}
