/* globals.c: the global check (see globals.h): the modules whose objects
 * are known, the thread's cache of good ranges, the verdict.  The table
 * of modules only grows; a slot is filled under the load lock (context.h)
 * and published by the count, so readers take no lock.  rwc_glob_good is
 * async-signal-safe and allocates nothing; rwc_glob_check may load. */
#include "config.h"

#include "bounds/globals.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "bounds/elfobjs.h"
#include "mapview/snapshot.h"
#include "base/context.h"
#include "base/fileio.h"
#include "base/ownmem.h"
#include "frames/ownstack.h"
#include "base/real.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

TLS struct rwc_gcache_set rwc_gcache;
TLS int rwc_glob_seen;

#ifdef DLFO_STRUCT_HAS_EH_DBASE /* glibc 2.35+: _dl_find_object */

#define NMOD 256

struct gmod {
	uintptr_t start, end;       /* the image, as _dl_find_object gives it */
	const struct link_map *map; /* its link map ... */
	const char *lname;          /* ... with this l_name (a copy) */
	const char *path;           /* the file, for reports */
	struct rwc_gobj *obj;       /* sorted; NULL: none known */
	size_t n;
	struct rwc_elf_names names; /* where their names are */
};

static struct gmod mods[NMOD];
static unsigned nmods; /* published: mods[0..nmods) are filled */

/* Writes E; a signal handler that interrupts this sees it empty (span 0)
 * until the rest is written. */
static void put(struct rwc_gcache *e, uintptr_t lo, uintptr_t span, uintptr_t lim)
{
	e->span = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->lo = lo;
	e->lim = lim;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->span = span;
}

/* Remembers [lo, hi) as good under generation G, read before what told
 * it (a change since leaves it invalid at once), as the first entry (the
 * others move down, the last goes): WHOLE, an object; else a run without
 * objects. */
static void same_gen(struct rwc_gcache_set *c, uint64_t g)
{
	if (c->gen != g) { /* a new generation: the old entries go */
		c->gen = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		for (int i = 0; i < RWC_GCACHE_N; i++)
			c->e[i].span = 0;
		c->none.span = 0;
		c->misses = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		c->gen = g;
	}
}

static void remember(uintptr_t lo, uintptr_t hi, int whole, uint64_t g)
{
	struct rwc_gcache_set *c = &rwc_gcache;

	same_gen(c, g);
	for (int i = RWC_GCACHE_N - 1; i > 0; i--)
		put(&c->e[i], c->e[i - 1].lo, c->e[i - 1].span, c->e[i - 1].lim);
	put(&c->e[0], lo, hi - lo, whole ? hi : UINTPTR_MAX);
}

/* The known module that is D's (the same image and link map, a link map
 * of the same name: not one unloaded and replaced), or NULL. */
static const struct gmod *known(const struct dl_find_object *d)
{
	unsigned n = __atomic_load_n(&nmods, __ATOMIC_ACQUIRE);
	const struct link_map *lm = d->dlfo_link_map;
	const char *name = lm && lm->l_name ? lm->l_name : "";

	for (unsigned i = n; i-- > 0;) {
		const struct gmod *m = &mods[i];

		if (m->start == (uintptr_t)d->dlfo_map_start && m->end == (uintptr_t)d->dlfo_map_end &&
		    m->map == lm && strcmp(m->lname, name) == 0)
			return m;
	}
	return NULL;
}

/* The run around A (in no image) that no image reaches into: the
 * snapshot's run of unnamed regions and holes (snapshot.h), less the
 * images that hold its ends; 0 when it cannot say.  A module loaded into
 * one of its holes later is no danger: the view, which thinks the hole
 * unmapped, finds it mapped at the first check there and moves the
 * generation on before the global check looks. */
static int unnamed_run(uintptr_t a, uint64_t g, uintptr_t *lo, uintptr_t *hi)
{
	struct dl_find_object d;
	int i = 0;

	if (!rwc_snap_unnamed_run(g, a, lo, hi))
		return 0;
	for (; *lo < a && _dl_find_object((void *)*lo, &d) == 0; *lo = (uintptr_t)d.dlfo_map_end)
		if (++i > 4)
			return 0;
	for (; *hi - 1 > a && _dl_find_object((void *)(*hi - 1), &d) == 0; *hi = (uintptr_t)d.dlfo_map_start)
		if (++i > 8)
			return 0;
	return *lo <= a && a < *hi;
}

/* A is in no module's image: remembered for the page (images start on
 * page boundaries, so none is before the next one), and from the second
 * such buffer of the generation on, for the run around it. */
static void no_image(uintptr_t a, uint64_t g)
{
	struct rwc_gcache_set *c = &rwc_gcache;
	uintptr_t next = (a | 4095) + 1, lo, hi;

	same_gen(c, g);
	if (!c->misses++ || !unnamed_run(a, g, &lo, &hi))
		lo = a, hi = next > a ? next : UINTPTR_MAX;
	put(&c->none, lo, hi - lo, UINTPTR_MAX);
}

/* Where A lies: -1 in no module's image (the cache told), 0 in a module
 * whose objects are not loaded (*D says which), 1 in a known module (*M;
 * *IDX its object holding A, or -1: the cache told of the gap). */
static int locate(uintptr_t a, struct dl_find_object *d, const struct gmod **m, long *idx)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	uintptr_t glo, ghi;

	if (_dl_find_object((void *)a, d) != 0) {
		no_image(a, g);
		return -1;
	}
	if (!(*m = known(d)))
		return 0;
	*idx = rwc_gobj_find((*m)->obj, (*m)->n, a, (*m)->start, (*m)->end, &glo, &ghi);
	if (*idx < 0)
		remember(glo, ghi, 0, g);
	return 1;
}

/* rwc_glob_good for A in D's image. */
static __attribute__((noinline)) int in_module(uintptr_t a, size_t n, struct dl_find_object *d,
						uint64_t g)
{
	const struct gmod *m = known(d);
	uintptr_t glo, ghi;
	long i;

	if (!m)
		return 0;
	i = rwc_gobj_find(m->obj, m->n, a, m->start, m->end, &glo, &ghi);
	if (i < 0) {
		remember(glo, ghi, 0, g);
		return 1;
	}
	if (n > m->obj[i].hi - a)
		return 0;
	remember(m->obj[i].lo, m->obj[i].hi, 1, g);
	return 1;
}

int rwc_glob_good(uintptr_t a, size_t n)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	const struct rwc_gcache_set *c = &rwc_gcache;
	struct dl_find_object d;

	if (c->gen == g && a - c->none.lo < c->none.span)
		return 1; /* (the full path after a fast one that did not look) */
	if (_dl_find_object((void *)a, &d) != 0) {
		no_image(a, g);
		return 1;
	}
	return in_module(a, n, &d, g);
}

static char *dup_own(const char *s, size_t len)
{
	char *p = rwc_elf_keep(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/* The absolute name the program was run by (AT_EXECFN), in kept memory,
 * or NULL: its file is opened without a /proc lookup, and taken only where
 * its ELF and program headers are those in memory (elfobjs.c). */
static const char *exe_by_name(void)
{
	const char *fn = rwc_exec_name();

	return fn ? dup_own(fn, strlen(fn)) : NULL;
}

/* Reads D's module's objects into a new slot (under the load lock; its
 * buffers are static, not on a thread's stack that may be small). */
static void load(const struct dl_find_object *d)
{
	const struct link_map *lm = d->dlfo_link_map;
	const char *name = lm && lm->l_name ? lm->l_name : "";
	unsigned n = __atomic_load_n(&nmods, __ATOMIC_ACQUIRE);
	struct gmod *m = &mods[n];
	static char exe[PATH_MAX];
	ssize_t len;

	if (n >= NMOD || !lm || known(d))
		return;
	memset(m, 0, sizeof *m);
	m->start = (uintptr_t)d->dlfo_map_start;
	m->end = (uintptr_t)d->dlfo_map_end;
	m->map = lm;
	if (!(m->lname = dup_own(name, strlen(name))))
		return;
	if (name[0]) {
		m->path = m->lname;
		m->n = rwc_elf_objects(m->path, lm->l_addr, m->start, m->end, &m->obj, &m->names);
	} else if (!(m->path = exe_by_name()) || /* the main program, by the name it was run by */
		   !(m->n = rwc_elf_objects(m->path, lm->l_addr, m->start, m->end, &m->obj, &m->names))) {
		m->path = NULL; /* (another file there now, a script's name): the kernel's link */
		if ((len = REAL(readlink)("/proc/self/exe", exe, sizeof exe)) > 0 && (size_t)len < sizeof exe &&
		    (m->path = dup_own(exe, (size_t)len)))
			m->n = rwc_elf_objects("/proc/self/exe", lm->l_addr, m->start, m->end, &m->obj, &m->names);
	}
	__atomic_store_n(&nmods, n + 1, __ATOMIC_RELEASE); /* failed too: not tried again */
}

static void load_on(void *d)
{
	load(d);
}

struct name_ask {
	const struct rwc_elf_names *nm;
	const char *name;
	int again;
};

static void name_on(void *arg)
{
	struct name_ask *q = arg;

	q->name = rwc_elf_name(q->nm, q->name, &q->again);
}

/* The name of M's object I, read from the file the first time a report
 * asks (elfobjs.h; under the report lock, which a signal handler may take
 * too, on the library's own stack), then kept in its place: the name, or
 * NULL when it is not to be had (not asked again; a failure that may
 * pass, such as no descriptor left, is asked again next time).  Not in a
 * vfork child (the parent's lock and memory), nor before the library's
 * memory is at hand. */
static const char *name_of(const struct gmod *m, long i)
{
	const char **at = &m->obj[i].name, *name = __atomic_load_n(at, __ATOMIC_ACQUIRE);
	struct name_ask q = {&m->names, NULL, 0};

	if (!((uintptr_t)name & RWC_GOBJ_OFFSET))
		return name;
	if (rwc_ownmem_get() <= 0 || rwc_in_vfork_child() || !rwc_libs_lock())
		return NULL;
	q.name = __atomic_load_n(at, __ATOMIC_ACQUIRE);
	if ((uintptr_t)q.name & RWC_GOBJ_OFFSET) {
		rwc_on_own_stack(name_on, &q);
		if (q.name || !q.again)
			__atomic_store_n(at, q.name, __ATOMIC_RELEASE);
	}
	rwc_libs_unlock();
	return q.name;
}

/* The object after OBJ[i] when the range up to HI reaches into it. */
static const char *reaches(const struct gmod *m, long i, uintptr_t hi)
{
	return (size_t)i + 1 < m->n && m->obj[i + 1].lo < hi ? name_of(m, i + 1) : NULL;
}

enum rwc_problem rwc_glob_check(uintptr_t a, size_t n, struct rwc_bounds *b, uintptr_t *bad_lo,
				uintptr_t *bad_hi)
{
	struct dl_find_object d;
	const struct gmod *m;
	uintptr_t end = n > UINTPTR_MAX - a ? UINTPTR_MAX : a + n;
	long i;
	int r = locate(a, &d, &m, &i);

	if (r == 0 && rwc_load_lock()) {
		rwc_on_own_stack(load_on, &d);
		rwc_elf_load_end();
		rwc_load_unlock();
		r = locate(a, &d, &m, &i);
	}
	if (r <= 0 || i < 0 || end <= m->obj[i].hi)
		return RWC_OK; /* the fast path's next look fills the cache */
	memset(b, 0, sizeof *b);
	b->kind = RWC_HOLDER_GLOBAL;
	b->lo = m->obj[i].lo;
	b->hi = b->limit = m->obj[i].hi;
	b->name = name_of(m, i);
	b->module = m->path;
	b->into = reaches(m, i, end);
	*bad_lo = b->hi;
	*bad_hi = end;
	return RWC_GLOBAL_OVERFLOW;
}

#else /* no _dl_find_object: no verdict */

int rwc_glob_good(uintptr_t a, size_t n)
{
	(void)a, (void)n;
	return 1;
}

enum rwc_problem rwc_glob_check(uintptr_t a, size_t n, struct rwc_bounds *b, uintptr_t *bad_lo,
				uintptr_t *bad_hi)
{
	(void)a, (void)n, (void)b, (void)bad_lo, (void)bad_hi;
	return RWC_OK;
}

#endif
