/* dwscope.c: a call site's stack variables read from the DWARF (see
 * dwscope.h): the scopes at its pc out to the function, each variable's
 * location and size.  Under the report lock; allocates (the library's own
 * heap). */
#include "config.h"

#include "frames/dwscope.h"

#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "frames/dwtype.h"

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

/* The frame pointer, and how far below the CFA a frame that set it up
 * keeps it (x86-64: push %rbp; mov %rsp,%rbp). */
#if defined(__x86_64__)
#define FP_REG 6
#define FP_BELOW_CFA 16
#else
#define FP_REG -1
#define FP_BELOW_CFA 0
#endif

static const struct rwc_dwlib *L;
static int unsure; /* a variable left out, or libdw failed: not to be cached */

/* The location of a simple DWARF expression: DW_OP_fbreg (FB the frame
 * base), DW_OP_call_frame_cfa, DW_OP_breg<sp>, then DW_OP_plus_uconst; for
 * the frame base itself (FB NULL) also DW_OP_reg<sp>.
 * Anything else (another register, a composite, a value): RWC_DV_NONE. */
static struct rwc_dv_loc eval(const Dwarf_Op *e, size_t n, const struct rwc_dv_loc *fb)
{
	struct rwc_dv_loc l = {RWC_DV_NONE, 0}, none = {RWC_DV_NONE, 0};

	if (n == 0)
		return none;
	if (e[0].atom == DW_OP_fbreg && fb && fb->base != RWC_DV_NONE)
		l.base = fb->base, l.off = fb->off + (int64_t)e[0].number;
	else if (e[0].atom == DW_OP_call_frame_cfa)
		l.base = RWC_DV_CFA;
	else if (SP_REG >= 0 && e[0].atom == DW_OP_breg0 + SP_REG)
		l.base = RWC_DV_SP, l.off = (int64_t)e[0].number;
	else if (!fb && SP_REG >= 0 && e[0].atom == DW_OP_reg0 + SP_REG)
		l.base = RWC_DV_SP; /* a frame base (clang's) that is the sp itself */
	for (size_t i = 1; i < n && l.base != RWC_DV_NONE; i++) {
		if (e[i].atom != DW_OP_plus_uconst)
			return none;
		l.off += (int64_t)e[i].number;
	}
	return l;
}

/* The frame base of the function SUB at ADDR of DW when it is the frame
 * pointer (clang -O0) and the module's CFI says the CFA is the frame
 * pointer plus FP_BELOW_CFA there: the CFA less that; else none. */
static struct rwc_dv_loc fp_base(Dwarf *dw, Dwarf_Die *sub, Dwarf_Addr addr)
{
	struct rwc_dv_loc none = {RWC_DV_NONE, 0}, fb = {RWC_DV_CFA, -FP_BELOW_CFA};
	Dwarf_Frame *fr = NULL;
	Dwarf_Attribute at;
	Dwarf_Op *e, *ops;
	size_t n, nops;
	Dwarf_CFI *cfi;
	Elf *elf;
	int good;

	if (FP_REG < 0 || !L->dwarf_attr(sub, DW_AT_frame_base, &at) ||
	    L->dwarf_getlocation_addr(&at, addr, &e, &n, 1) != 1 || n != 1 || e[0].atom != DW_OP_reg0 + FP_REG ||
	    !(elf = L->dwarf_getelf(dw)) || !(cfi = L->dwarf_getcfi_elf(elf)))
		return none;
	good = L->dwarf_cfi_addrframe(cfi, addr, &fr) == 0 && L->dwarf_frame_cfa(fr, &ops, &nops) == 0 &&
	       nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number == FP_REG && ops[0].number2 == FP_BELOW_CFA;
	free(fr);
	L->dwarf_cfi_end(cfi);
	return good ? fb : none;
}

/* The location attribute NAME of DIE at ADDR (one expression only). */
static struct rwc_dv_loc locate(Dwarf_Die *die, unsigned name, Dwarf_Addr addr, const struct rwc_dv_loc *fb)
{
	struct rwc_dv_loc none = {RWC_DV_NONE, 0};
	Dwarf_Attribute at;
	Dwarf_Op *e;
	size_t n;

	if (!L->dwarf_attr(die, name, &at) || L->dwarf_getlocation_addr(&at, addr, &e, &n, 1) != 1)
		return none;
	return eval(e, n, fb);
}

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
static void add_var(struct rwc_dv_site *s, int *cap, Dwarf_Die *die, Dwarf_Addr addr,
		    const struct rwc_dv_loc *fb, const char *func)
{
	struct rwc_dv_loc at = locate(die, DW_AT_location, addr, fb);
	Dwarf_Die t;
	Dwarf_Word size;
	struct rwc_dv_var *v;
	char text[256];
	struct rwc_fmt o;
	int line = 0;

	if (at.base == RWC_DV_NONE || !rwc_dw_type_of(L, die, &t) || L->dwarf_aggregate_size(&t, &size) != 0 || size == 0)
		return;
	if (s->nvars == *cap) {
		int ncap = *cap ? 2 * *cap : 8;
		struct rwc_dv_var *nv = realloc(s->vars, (size_t)ncap * sizeof *nv);

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
	if (v->name && v->type)
		s->nvars++;
	else
		unsure |= !v->type;
}

/* The scopes at ADDR, innermost first, out through the function that
 * holds the code (as symbolize.c: the concrete inlined instances). */
static int scopes_at(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	Dwarf_Die cu;
	int n;

	*scopes = NULL;
	if (!rwc_dw_cu_of(L, dw, addr, &cu))
		return 0;
	n = rwc_dw_scopes(L, &cu, addr, scopes);
	unsure |= n < 0; /* (0: no scope holds ADDR) */
	return n > 0 ? n : 0;
}

/* The line the line table gives ADDR, in the CU of the scope SC: 0 for
 * code the compiler merged from several lines (clang), -1 not known. */
static int line_at(Dwarf_Die *sc, Dwarf_Addr addr)
{
	Dwarf_Line *l;
	Dwarf_Die cu;
	int line;

	if (!L->dwarf_diecu(sc, &cu, NULL, NULL) || !(l = L->dwarf_getsrc_die(&cu, addr)) ||
	    L->dwarf_lineno(l, &line) != 0)
		return -1;
	return line;
}

/* The variables of the scopes at ADDR (out to the function), into S. */
int rwc_dw_collect(const struct rwc_dwlib *lib, struct rwc_dv_site *s, Dwarf *dw, Dwarf_Addr addr)
{
	Dwarf_Die *sc = NULL, kid;
	struct rwc_dv_loc fb = {RWC_DV_NONE, 0};
	const char *func = NULL;
	int n, top = -1, cap = 0;

	L = lib;
	unsure = 0;
	n = scopes_at(dw, addr, &sc);
	for (int i = 0; i < n && top < 0; i++)
		if (L->dwarf_tag(&sc[i]) == DW_TAG_subprogram)
			top = i;
	/* code of line 0 was merged from several places (clang): the
	 * variables in scope there need not be the ones the buffer is in */
	if (top >= 0 && line_at(&sc[0], addr) == 0)
		top = -1;
	if (top >= 0)
		fb = locate(&sc[top], DW_AT_frame_base, addr, NULL);
	if (top >= 0 && fb.base == RWC_DV_NONE)
		fb = fp_base(dw, &sc[top], addr);
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
	return unsure;
}
