/* dwvars.c: stack variables from DWARF (see dwvars.h).  The call sites
 * are cached in the library's own heap for the process's life (each pc's
 * variables in scope, located relative to the frame's CFA or sp; the
 * modules and their DWARF: dwmods.c); a dlclose drops both.  A warm call
 * site costs a hash probe and a compare per variable.  Under the report
 * lock; allocates. */
#include "config.h"

#include "frames/dwvars.h"
#include "base/common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "frames/dwlib.h"
#include "frames/dwmods.h"
#include "frames/dwtype.h"
#include "frames/keepout.h"
#include "frames/sitecache.h"

/* The DWARF number of the stack pointer: arch-specific, here only. */
#if defined(__x86_64__)
#define SP_REG 7
#elif defined(__aarch64__)
#define SP_REG 31
#elif defined(__i386__)
#define SP_REG 4
#else
#define SP_REG -1 /* unknown: sp-relative variables are not judged */
#endif

static const struct rwc_dwlib *L;

/* ---- locations: BASE + off, BASE the frame's CFA or its sp */
enum { AT_NONE, AT_CFA, AT_SP };

struct dv_loc {
	int base;
	int64_t off;
};

/* The location of a simple DWARF expression: DW_OP_fbreg (FB the frame
 * base), DW_OP_call_frame_cfa, DW_OP_breg<sp>, then DW_OP_plus_uconst; for
 * the frame base itself (FB NULL) also DW_OP_reg<sp>.
 * Anything else (another register, a composite, a value): AT_NONE. */
static struct dv_loc eval(const Dwarf_Op *e, size_t n, const struct dv_loc *fb)
{
	struct dv_loc l = {AT_NONE, 0}, none = {AT_NONE, 0};

	if (n == 0)
		return none;
	if (e[0].atom == DW_OP_fbreg && fb && fb->base != AT_NONE)
		l.base = fb->base, l.off = fb->off + (int64_t)e[0].number;
	else if (e[0].atom == DW_OP_call_frame_cfa)
		l.base = AT_CFA;
	else if (SP_REG >= 0 && e[0].atom == DW_OP_breg0 + SP_REG)
		l.base = AT_SP, l.off = (int64_t)e[0].number;
	else if (!fb && SP_REG >= 0 && e[0].atom == DW_OP_reg0 + SP_REG)
		l.base = AT_SP; /* a frame base (clang's) that is the sp itself */
	for (size_t i = 1; i < n && l.base != AT_NONE; i++) {
		if (e[i].atom != DW_OP_plus_uconst)
			return none;
		l.off += (int64_t)e[i].number;
	}
	return l;
}

/* The location attribute NAME of DIE at ADDR (one expression only). */
static struct dv_loc locate(Dwarf_Die *die, unsigned name, Dwarf_Addr addr, const struct dv_loc *fb)
{
	struct dv_loc none = {AT_NONE, 0};
	Dwarf_Attribute at;
	Dwarf_Op *e;
	size_t n;

	if (!L->dwarf_attr(die, name, &at) || L->dwarf_getlocation_addr(&at, addr, &e, &n, 1) != 1)
		return none;
	return eval(e, n, fb);
}

/* ---- call sites: the variables in scope at a pc */
struct dv_var {
	struct dv_loc at;
	size_t size;
	const char *name, *type, *file, *func; /* libdw's strings (kept) or ours */
	int line;
	/* where it is declared in the function's own text (collect() only):
	 * its line and file, or those of the outermost inlined call that
	 * holds it */
	int pos;
	const char *pos_file;
};

struct dv_site {
	uintptr_t pc;
	struct dv_site *next;
	int nvars;
	struct dv_var *vars;
};

#define NBUCKET 512
#define MAXSITES 8192
static struct dv_site *buckets[NBUCKET];
static int nsites RWC_START_DATA;
static int unsure; /* collect() left a variable out, or libdw failed: not cached */

static const char *str_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute at;

	return L->dwarf_formstring(L->dwarf_attr_integrate(die, name, &at));
}

/* DIE's declaration file: libdw's answer, else (DWARF 5 numbers the CU's
 * own file 0, which libdw 0.188 does not resolve: clang's default) the
 * CU's name. */
static const char *decl_file(Dwarf_Die *die)
{
	const char *f = L->dwarf_decl_file(die);
	Dwarf_Attribute at;
	Dwarf_Word idx;
	Dwarf_Die cu;

	if (f || L->dwarf_formudata(L->dwarf_attr_integrate(die, DW_AT_decl_file, &at), &idx) != 0 || idx != 0 ||
	    !L->dwarf_diecu(die, &cu, NULL, NULL))
		return f;
	return L->dwarf_diename(&cu);
}

/* Adds the variable or parameter DIE (located at ADDR) to S; *CAP is the
 * room of S->vars. */
static void add_var(struct dv_site *s, int *cap, Dwarf_Die *die, Dwarf_Addr addr,
		    const struct dv_loc *fb, const char *func, const struct dv_var *call)
{
	struct dv_loc at = locate(die, DW_AT_location, addr, fb);
	Dwarf_Die t;
	Dwarf_Word size;
	struct dv_var *v;
	char text[256];
	struct rwc_fmt o;
	int line = 0;

	if (at.base == AT_NONE || !rwc_dw_type_of(L, die, &t) || L->dwarf_aggregate_size(&t, &size) != 0 || size == 0)
		return;
	if (s->nvars == *cap) {
		int ncap = *cap ? 2 * *cap : 8;
		struct dv_var *nv = realloc(s->vars, (size_t)ncap * sizeof *nv);

		if (!nv) {
			unsure = 1;
			return;
		}
		s->vars = nv, *cap = ncap;
	}
	rwc_fmt_init(&o, text, sizeof text);
	rwc_dw_type_text(L, &o, &t);
	v = &s->vars[s->nvars];
	v->at = at;
	v->size = size;
	v->name = str_attr(die, DW_AT_name);
	v->type = strdup(text);
	v->file = decl_file(die);
	v->line = L->dwarf_decl_line(die, &line) == 0 ? line : 0;
	v->func = func;
	v->pos = call->pos ? call->pos : v->line;
	v->pos_file = call->pos ? call->pos_file : v->file;
	if (v->name && v->type)
		s->nvars++;
	else
		unsure |= !v->type;
}

/* The scopes at ADDR, innermost first, out through the function that
 * holds the code (as symbolize.c: the concrete inlined instances). */
static int scopes_at(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	Dwarf_Die cu, *found = NULL, inner;
	int n;

	*scopes = NULL;
	if (!L->dwarf_addrdie(dw, addr, &cu) && !rwc_dw_scan_cu(L, dw, addr, &cu))
		return 0; /* (no .debug_aranges: the CU whose ranges hold ADDR) */
	n = L->dwarf_getscopes(&cu, addr, &found);
	if (n <= 0) {
		unsure |= n < 0; /* (0: no scope holds ADDR) */
		free(found);
		return 0;
	}
	inner = found[0];
	free(found);
	n = L->dwarf_getscopes_die(&inner, scopes);
	if (n <= 0) {
		unsure |= n < 0;
		free(*scopes);
		*scopes = NULL;
		n = 0;
	}
	return n;
}

/* The line and file of the inlined call DIE (in its caller's text) into
 * C->pos and C->pos_file; C->pos stays 0 when they are not known. */
static void call_place(Dwarf_Die *die, struct dv_var *c)
{
	Dwarf_Attribute at;
	Dwarf_Word line, file;
	Dwarf_Files *files;
	size_t nfiles;
	Dwarf_Die cu;

	if (L->dwarf_formudata(L->dwarf_attr(die, DW_AT_call_line, &at), &line) != 0 ||
	    L->dwarf_formudata(L->dwarf_attr(die, DW_AT_call_file, &at), &file) != 0 ||
	    !L->dwarf_diecu(die, &cu, NULL, NULL) || L->dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 ||
	    file >= nfiles || !(c->pos_file = L->dwarf_filesrc(files, file, NULL, NULL)) || line == 0 ||
	    line > INT_MAX)
		return;
	c->pos = (int)line;
}

/* Y shares bytes with X, which is declared after Y's place in the same
 * function's text. */
static int shadows(const struct dv_var *y, const struct dv_var *x)
{
	return x->at.base == y->at.base && x->at.off < y->at.off + (int64_t)y->size &&
	       y->at.off < x->at.off + (int64_t)x->size && x->pos > y->pos && y->pos > 0 && x->pos_file &&
	       y->pos_file && strcmp(x->pos_file, y->pos_file) == 0;
}

/* Drops from S the variables of outer scopes (S->vars[0..outer)) that
 * share bytes with one of the scope just added (S->vars[outer..)) and are
 * declared after it: the compiler gives two variables one slot only when
 * their lives do not meet (GCC at -O2: a block's array and one the
 * function declares after the block, an inlined callee's local and one
 * its caller declares after the call), and a variable declared after the
 * inner scope cannot be in use inside it, so the buffer is judged by the
 * inner one.  One declared before may be (code merged from its path
 * into the scope's, -O2 tail merging): then the widest decides. */
static void drop_shadowed(struct dv_site *s, int outer)
{
	int kept = 0;

	for (int j = 0; j < s->nvars; j++) {
		int shadowed = 0;

		for (int k = outer; j < outer && k < s->nvars && !shadowed; k++)
			shadowed = shadows(&s->vars[k], &s->vars[j]);
		if (shadowed)
			free((char *)s->vars[j].type);
		else
			s->vars[kept++] = s->vars[j];
	}
	s->nvars = kept;
}

/* The variables of the scopes at ADDR (out to the function), into S. */
static void collect(struct dv_site *s, Dwarf *dw, Dwarf_Addr addr)
{
	Dwarf_Die *sc = NULL, kid;
	struct dv_loc fb = {AT_NONE, 0};
	const char *func = NULL;
	int n = scopes_at(dw, addr, &sc), top = -1, cap = 0, outer;
	struct dv_var call = {.pos = 0}; /* the outermost inlined call's place */

	for (int i = 0; i < n && top < 0; i++)
		if (L->dwarf_tag(&sc[i]) == DW_TAG_subprogram)
			top = i;
	if (top >= 0)
		fb = locate(&sc[top], DW_AT_frame_base, addr, NULL);
	for (int i = top; i >= 0; i--) {
		int tag = L->dwarf_tag(&sc[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			func = L->dwarf_diename(&sc[i]);
		if (tag == DW_TAG_inlined_subroutine && !call.pos)
			call_place(&sc[i], &call);
		if (L->dwarf_child(&sc[i], &kid) != 0)
			continue;
		outer = s->nvars;
		do {
			tag = L->dwarf_tag(&kid);
			if (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter)
				add_var(s, &cap, &kid, addr, &fb, func, &call);
		} while (L->dwarf_siblingof(&kid, &kid) == 0);
		drop_shadowed(s, outer);
	}
	free(sc);
}

/* S's variables from the call-site cache's record REC of N (sitecache.h):
 * 1, or 0 (none could be kept). */
static int from_cache(struct dv_site *s, const unsigned char *rec, unsigned n)
{
	struct rwc_sf_var *c = n ? malloc(n * sizeof *c) : NULL;

	if (n && (!c || !(s->vars = calloc(n, sizeof *s->vars)))) {
		free(c);
		return 0;
	}
	if (n)
		rwc_sf_vars(rec, c);
	for (unsigned i = 0; i < n; i++) {
		struct dv_var *v = &s->vars[s->nvars];

		if (!c[i].name || !c[i].type || (c[i].base != AT_CFA && c[i].base != AT_SP) ||
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
static void to_cache(const struct dv_site *s)
{
	unsigned n = (unsigned)s->nvars;
	struct rwc_sf_var *v = n <= RWC_SF_MAXVARS ? malloc((n ? n : 1) * sizeof *v) : NULL;

	if (!v)
		return;
	for (unsigned i = 0; i < n; i++) {
		const struct dv_var *d = &s->vars[i];

		v[i] = (struct rwc_sf_var){d->at.base, d->line, d->at.off, d->size, d->name, d->type, d->file, d->func};
	}
	rwc_sitecache_put(s->pc, v, n);
	free(v);
}

/* S's variables read from its module's DWARF (M), then cached; 0 when the
 * module has none. */
static int from_dwarf(struct dv_site *s, uintptr_t pc)
{
	/* The module's DWARF, opened at its first pc (dwmods.c holds the
	 * program's holes while it maps the file; a file without DWARF --
	 * most of a distribution's binaries -- is only read with pread). */
	struct rwc_dwmod *m = rwc_dwmod_of(pc);

	if (!m || !m->dw) /* a module without DWARF: no variables, no record */
		return 0;
	if (pc - 1 >= m->bias && (L || (L = rwc_dwlib()))) {
		unsure = 0;
		collect(s, m->dw, (Dwarf_Addr)(pc - 1 - m->bias)); /* inside the call */
		if (!unsure)
			to_cache(s);
	}
	return 1;
}

/* The site of PC, found or made; NULL when none can be made.  Its
 * variables from the call-site cache (sitecache.h: what an earlier
 * process worked out for this module), else from the DWARF.  What libdw
 * and the own heap map while reading them stays out of the holes (a
 * later bad call into a hole must not land in it). */
static struct dv_site *site_of(uintptr_t pc)
{
	struct dv_site **b = &buckets[(pc ^ (pc >> 9)) % NBUCKET], *s;
	const unsigned char *rec;
	unsigned n;
	int made;

	for (s = nsites ? *b : NULL; s; s = s->next) /* (no table page read before the first) */
		if (s->pc == pc)
			return s;
	if (nsites >= MAXSITES)
		return NULL;
	rwc_keepout_begin();
	if ((s = calloc(1, sizeof *s))) {
		s->pc = pc;
		made = rwc_sitecache_get(pc, &rec, &n) ? from_cache(s, rec, n) : from_dwarf(s, pc);
		if (made) {
			s->next = *b;
			*b = s;
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
		while (buckets[b]) {
			struct dv_site *s = buckets[b];

			buckets[b] = s->next;
			for (int i = 0; i < s->nvars; i++)
				free((char *)s->vars[i].type);
			free(s->vars);
			free(s);
		}
	rwc_dwmods_drop();
	rwc_sitecache_drop();
	nsites = 0;
}

static uintptr_t var_lo(const struct dv_var *v, const struct rwc_dw_frame *f)
{
	uintptr_t base = v->at.base == AT_CFA ? f->cfa : f->sp;

	return base ? base + (uintptr_t)v->at.off : 0;
}

int rwc_dwvars_find(const struct rwc_dw_frame *f, uintptr_t a, size_t n, struct rwc_bounds *out)
{
	const struct dv_var *v = NULL, *into = NULL;
	uintptr_t lo = 0, hi = 0, end = n > UINTPTR_MAX - a ? UINTPTR_MAX : a + n, ilo = 0;
	struct dv_site *s;

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
