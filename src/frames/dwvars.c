/* dwvars.c: stack variables from DWARF (see dwvars.h).  The call sites
 * are cached in the library's own heap for the process's life (each pc's
 * variables in scope, located relative to the frame's CFA or sp; the
 * modules and their DWARF: dwmods.c); a dlclose drops both.  A warm call
 * site costs a hash probe and a compare per variable.  Under the report
 * lock; allocates. */
#include "config.h"

#include "frames/dwvars.h"
#include "base/common.h"

#include <stdlib.h>
#include <string.h>

#include "frames/dwlib.h"
#include "frames/dwscope.h"
#include "frames/dwmods.h"
#include "frames/keepout.h"
#include "frames/sitecache.h"

/* ---- call sites: the variables in scope at a pc (dwscope.h) */
#define NBUCKET 512
#define MAXSITES 8192
static struct rwc_dv_site *buckets[NBUCKET];
/* Bit b: bucket b has a site (asked before the bucket is read: buckets[]
 * spans two pages, and a read of one not yet written maps the zero page,
 * the write after it a second fault). */
static uint64_t used[NBUCKET / 64] RWC_START_DATA;
static int nsites RWC_START_DATA;
static const struct rwc_dwlib *L;

/* S's variables from the call-site cache's record REC of N (sitecache.h):
 * 1, or 0 (none could be kept). */
static int from_cache(struct rwc_dv_site *s, const unsigned char *rec, unsigned n)
{
	struct rwc_sf_var *c = n ? malloc(n * sizeof *c) : NULL;

	if (n && (!c || !(s->vars = calloc(n, sizeof *s->vars)))) {
		free(c);
		return 0;
	}
	if (n)
		rwc_sf_vars(rec, c);
	for (unsigned i = 0; i < n; i++) {
		struct rwc_dv_var *v = &s->vars[s->nvars];

		if (!c[i].name || !c[i].type || (c[i].base != RWC_DV_CFA && c[i].base != RWC_DV_SP) ||
		    !(v->type = strdup(c[i].type)))
			continue;
		v->at.base = c[i].base, v->at.off = c[i].off;
		v->size = (size_t)c[i].size;
		v->name = c[i].name, v->file = c[i].file, v->func = c[i].func, v->line = c[i].line;
		s->nvars++;
	}
	free(c);
	return 1;
}

/* Puts S's variables into the call-site cache. */
static void to_cache(const struct rwc_dv_site *s)
{
	unsigned n = (unsigned)s->nvars;
	struct rwc_sf_var *v = n <= RWC_SF_MAXVARS ? malloc((n ? n : 1) * sizeof *v) : NULL;

	if (!v)
		return;
	for (unsigned i = 0; i < n; i++) {
		const struct rwc_dv_var *d = &s->vars[i];

		v[i] = (struct rwc_sf_var){d->at.base, d->line, d->at.off, d->size, d->name, d->type, d->file, d->func};
	}
	rwc_sitecache_put(s->pc, v, n);
	free(v);
}

/* S's variables read from its module's DWARF (M), then cached; 0 when the
 * module has none. */
static int from_dwarf(struct rwc_dv_site *s, uintptr_t pc)
{
	/* The module's DWARF, opened at its first pc (dwmods.c holds the
	 * program's holes while it maps the file; a file without DWARF --
	 * most of a distribution's binaries -- is only read with pread). */
	struct rwc_dwmod *m = rwc_dwmod_of(pc);

	if (!m || !m->dw) /* a module without DWARF: no variables, no record */
		return 0;
	if (pc - 1 >= m->bias && (L || (L = rwc_dwlib())) &&
	    !rwc_dw_collect(L, s, m->dw, (Dwarf_Addr)(pc - 1 - m->bias))) /* (inside the call) */
		to_cache(s); /* nothing left out */
	return 1;
}

/* The site of PC, found or made; NULL when none can be made.  Its
 * variables from the call-site cache (sitecache.h: what an earlier
 * process worked out for this module), else from the DWARF.  What libdw
 * and the own heap map while reading them stays out of the holes (a
 * later bad call into a hole must not land in it). */
static struct rwc_dv_site *site_of(uintptr_t pc)
{
	size_t k = (pc ^ (pc >> 9)) % NBUCKET;
	struct rwc_dv_site **b = &buckets[k], *s;
	const unsigned char *rec;
	unsigned n;
	int made;

	for (s = (used[k / 64] >> (k % 64)) & 1 ? *b : NULL; s; s = s->next)
		if (s->pc == pc)
			return s;
	if (nsites >= MAXSITES)
		return NULL;
	rwc_keepout_begin();
	if ((s = calloc(1, sizeof *s))) {
		s->pc = pc;
		made = rwc_sitecache_get(pc, &rec, &n) ? from_cache(s, rec, n) : from_dwarf(s, pc);
		if (made) {
			s->next = (used[k / 64] >> (k % 64)) & 1 ? *b : NULL;
			*b = s;
			used[k / 64] |= 1ull << (k % 64);
			nsites++;
		} else {
			free(s->vars);
			free(s);
			s = NULL;
		}
	}
	rwc_keepout_end();
	return s;
}

static void drop_all(void)
{
	for (int b = 0; b < NBUCKET; b++)
		while ((used[b / 64] >> (b % 64)) & 1 && buckets[b]) {
			struct rwc_dv_site *s = buckets[b];

			buckets[b] = s->next;
			for (int i = 0; i < s->nvars; i++)
				free((char *)s->vars[i].type);
			free(s->vars);
			free(s);
		}
	rwc_dwmods_drop();
	rwc_sitecache_drop();
	memset(used, 0, sizeof used);
	nsites = 0;
}

static uintptr_t var_lo(const struct rwc_dv_var *v, const struct rwc_dw_frame *f)
{
	uintptr_t base = v->at.base == RWC_DV_CFA ? f->cfa : f->sp;

	return base ? base + (uintptr_t)v->at.off : 0;
}

int rwc_dwvars_find(const struct rwc_dw_frame *f, uintptr_t a, size_t n, struct rwc_bounds *out)
{
	const struct rwc_dv_var *v = NULL, *into = NULL;
	uintptr_t lo = 0, hi = 0, end = n > UINTPTR_MAX - a ? UINTPTR_MAX : a + n, ilo = 0;
	struct rwc_dv_site *s;

	if (rwc_dwmods_unloaded())
		drop_all();
	s = site_of(f->pc);

	for (int i = 0; s && i < s->nvars; i++) {
		uintptr_t l = var_lo(&s->vars[i], f), h = l + s->vars[i].size;

		if (l && a >= l && a < h && h > hi) /* the widest of those that hold A */
			v = &s->vars[i], lo = l, hi = h;
	}
	if (!v)
		return 0;
	for (int i = 0; i < s->nvars && end > hi; i++) {
		uintptr_t l = var_lo(&s->vars[i], f);

		if (l >= hi && l < end && (!into || l < ilo))
			into = &s->vars[i], ilo = l;
	}
	memset(out, 0, sizeof *out);
	out->kind = RWC_HOLDER_VARIABLE;
	out->lo = lo;
	out->hi = out->limit = hi;
	out->pc = f->pc;
	out->index = f->index;
	out->name = v->name;
	out->type = v->type;
	out->decl_file = v->file;
	out->decl_line = v->line;
	out->function = v->func;
	out->into = into ? into->name : NULL;
	out->into_type = into ? into->type : NULL;
	return 1;
}
