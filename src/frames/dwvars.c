/* dwvars.c: stack variables from DWARF (see dwvars.h).  Two caches, both
 * in the library's own heap and kept for the process's life: the modules
 * (their Dwarf handle, or none), and the call sites (each pc's variables
 * in scope, located relative to the frame's CFA or sp).  A warm call site
 * costs a hash probe and a compare per variable.  Under the unwind lock;
 * allocates; the module's file is mapped (libelf) and its descriptor
 * closed before returning. */
#include "config.h"

#include "frames/dwvars.h"

#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "frames/dwlib.h"
#include "frames/dwtype.h"
#include "frames/keepout.h"
#include "frames/symbolize.h"

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

/* ---- modules: by load bias and name (the loader's list, walked with
 * dl_iterate_phdr: its short list lock, never dladdr's loader lock, which
 * a thread inside dlopen() holds while its constructors read); dw NULL:
 * no DWARF.  A dlclose (the loader's count of removals) drops every
 * module and call site: another module may sit at the same addresses. */
struct dv_mod {
	uintptr_t bias;
	const char *name;
	Elf *elf;
	Dwarf *dw;
};

#define NMOD 128
static struct dv_mod mods[NMOD];
static int nmods;
static unsigned long long subs_seen;

struct dv_find {
	uintptr_t a;        /* in: the address */
	uintptr_t bias;     /* out: the module holding it */
	const char *name;
	const ElfW(Phdr) *phdr;
	int phnum;
	int found;
	unsigned long long subs;
};

static int find_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dv_find *f = arg;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
		f->subs = info->dlpi_subs;
	if (!f->a)
		return 1; /* the count only */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->a >= lo && f->a - lo < ph->p_memsz) {
			f->bias = info->dlpi_addr;
			f->name = info->dlpi_name;
			f->phdr = info->dlpi_phdr;
			f->phnum = info->dlpi_phnum;
			f->found = 1;
			return 1;
		}
	}
	return 0;
}

static void drop_all(void);

/* The loader's removal count; a change since the caches were filled
 * drops them. */
static void check_unloads(void)
{
	struct dv_find f = {0, 0, NULL, NULL, 0, 0, 0};

	dl_iterate_phdr(find_phdr, &f);
	if (f.subs != subs_seen)
		drop_all();
	subs_seen = f.subs;
}

/* Maps the module file and reads its DWARF: NULL for none.  Loads libdw
 * only for a file that has DWARF. */
static Dwarf *open_dwarf(const char *path, const struct dv_find *mf, uintptr_t pc, Elf **elfp)
{
	Elf *elf;
	Dwarf *dw = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*elfp = NULL;
	if (fd < 0)
		return NULL;
	if (!rwc_dw_has_debug_info(fd, mf->phdr, mf->phnum) || !rwc_room_for_libdw(&pc, 1) || !(L || (L = rwc_dwlib()))) {
		close(fd);
		return NULL;
	}
	L->elf_version(EV_CURRENT);
	rwc_keepout_begin(); /* the file's mapping: not into a hole */
	elf = L->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		dw = L->dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		L->elf_cntl(elf, ELF_C_FDDONE); /* mapped: the descriptor is done with */
		if (!dw)
			L->elf_end(elf);
	}
	*elfp = dw ? elf : NULL;
	rwc_keepout_end();
	close(fd);
	return dw;
}

/* The module holding PC, its DWARF read at the first look; NULL when the
 * table is full or PC is in no module. */
static struct dv_mod *module_of(uintptr_t pc)
{
	struct dv_find f = {pc - 1, 0, NULL, NULL, 0, 0, 0};
	struct dv_mod *m;

	dl_iterate_phdr(find_phdr, &f);
	if (!f.found)
		return NULL;
	for (int i = 0; i < nmods; i++)
		if (mods[i].bias == f.bias && mods[i].name == f.name)
			return &mods[i];
	if (nmods == NMOD)
		return NULL;
	m = &mods[nmods++];
	m->bias = f.bias;
	m->name = f.name;
	m->dw = open_dwarf(f.name && f.name[0] ? f.name : "/proc/self/exe", &f, pc, &m->elf);
	return m;
}

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
static int nsites;

static const char *str_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute at;

	return L->dwarf_formstring(L->dwarf_attr_integrate(die, name, &at));
}

/* Adds the variable or parameter DIE (located at ADDR) to S; *CAP is the
 * room of S->vars. */
static void add_var(struct dv_site *s, int *cap, Dwarf_Die *die, Dwarf_Addr addr,
		    const struct dv_loc *fb, const char *func)
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

		if (!nv)
			return;
		s->vars = nv, *cap = ncap;
	}
	rwc_fmt_init(&o, text, sizeof text);
	rwc_dw_type_text(L, &o, &t);
	v = &s->vars[s->nvars];
	v->at = at;
	v->size = size;
	v->name = str_attr(die, DW_AT_name);
	v->type = strdup(text);
	v->file = L->dwarf_decl_file(die);
	v->line = L->dwarf_decl_line(die, &line) == 0 ? line : 0;
	v->func = func;
	if (v->name && v->type)
		s->nvars++;
}

/* The scopes at ADDR, innermost first, out through the function that
 * holds the code (as symbolize.c: the concrete inlined instances). */
static int scopes_at(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	Dwarf_Die cu, *found = NULL, inner;
	Dwarf_Off off = 0, next;
	size_t hsize;
	int n;

	*scopes = NULL;
	if (!L->dwarf_addrdie(dw, addr, &cu)) {
		int hit = 0; /* no .debug_aranges: the CU whose ranges hold ADDR */
		while (!hit && L->dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			hit = L->dwarf_offdie(dw, off + hsize, &cu) && L->dwarf_haspc(&cu, addr) > 0;
			off = next;
		}
		if (!hit)
			return 0;
	}
	n = L->dwarf_getscopes(&cu, addr, &found);
	if (n <= 0) {
		free(found);
		return 0;
	}
	inner = found[0];
	free(found);
	n = L->dwarf_getscopes_die(&inner, scopes);
	if (n <= 0) {
		free(*scopes);
		*scopes = NULL;
		n = 0;
	}
	return n;
}

/* The variables of the scopes at ADDR (out to the function), into S. */
static void collect(struct dv_site *s, Dwarf *dw, Dwarf_Addr addr)
{
	Dwarf_Die *sc = NULL, kid;
	struct dv_loc fb = {AT_NONE, 0};
	const char *func = NULL;
	int n = scopes_at(dw, addr, &sc), top = -1, cap = 0;

	for (int i = 0; i < n && top < 0; i++)
		if (L->dwarf_tag(&sc[i]) == DW_TAG_subprogram)
			top = i;
	if (top >= 0)
		fb = locate(&sc[top], DW_AT_frame_base, addr, NULL);
	for (int i = top; i >= 0; i--) {
		int tag = L->dwarf_tag(&sc[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			func = L->dwarf_diename(&sc[i]);
		if (L->dwarf_child(&sc[i], &kid) != 0)
			continue;
		do {
			tag = L->dwarf_tag(&kid);
			if (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter)
				add_var(s, &cap, &kid, addr, &fb, func);
		} while (L->dwarf_siblingof(&kid, &kid) == 0);
	}
	free(sc);
}

/* The site of PC, found or made; NULL when none can be made. */
static struct dv_site *site_of(uintptr_t pc)
{
	struct dv_site **b = &buckets[(pc ^ (pc >> 9)) % NBUCKET], *s;
	struct dv_mod *m;

	for (s = *b; s; s = s->next)
		if (s->pc == pc)
			return s;
	if (nsites >= MAXSITES)
		return NULL;
	/* what libdw and the own heap map now stays out of the program's
	 * holes (a later bad call into a hole must not land in it) */
	rwc_keepout_begin();
	if ((s = calloc(1, sizeof *s))) {
		s->pc = pc;
		m = module_of(pc);
		if (m && m->dw && pc - 1 >= m->bias)
			collect(s, m->dw, (Dwarf_Addr)(pc - 1 - m->bias)); /* inside the call */
		s->next = *b;
		*b = s;
		nsites++;
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
	for (int i = 0; i < nmods; i++)
		if (mods[i].dw) {
			L->dwarf_end(mods[i].dw);
			L->elf_end(mods[i].elf);
		}
	nsites = nmods = 0;
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

	check_unloads();
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
