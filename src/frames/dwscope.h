/* dwscope.h: a call site's stack variables from the DWARF of its module
 * (dwscope.c), for the call-site tables of dwvars.c: where each lies
 * (relative to the frame's CFA or its sp), its size, C type, name and
 * declaration.  Where several share bytes (the compiler's reuse of a
 * slot), dwvars.c judges by the widest: which one is in use at a pc the
 * DWARF does not say.  Under the report lock. */
#ifndef RWC_DWSCOPE_H
#define RWC_DWSCOPE_H

#include <stdint.h>

#include "frames/dwlib.h"

/* ---- locations: BASE + off, BASE the frame's CFA or its sp */
enum { RWC_DV_NONE, RWC_DV_CFA, RWC_DV_SP };

struct rwc_dv_loc {
	int base;
	int64_t off;
};

struct rwc_dv_var {
	struct rwc_dv_loc at;
	size_t size;
	const char *name, *type, *file, *func; /* libdw's strings (kept) or ours */
	int line;
};

struct rwc_dv_site {
	uintptr_t pc;
	struct rwc_dv_site *next;
	int nvars;
	struct rwc_dv_var *vars;
};

/* Adds to S (its vars realloc()ed) the variables of the scopes at ADDR of
 * DW, out to the function, read with LIB; 1 when one was left out or
 * libdw failed (S is then not to be cached), else 0. */
int rwc_dw_collect(const struct rwc_dwlib *lib, struct rwc_dv_site *s, Dwarf *dw, Dwarf_Addr addr);

#endif
