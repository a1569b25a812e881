/* dwlib.c: the one dlopen() of libdw (see dwlib.h).  Report lock only;
 * allocates (the loader's). */
#include "config.h"

#include "frames/dwlib.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/once.h"
#include "frames/keepout.h"
#include "base/real.h"

static struct rwc_dwlib D;
static struct rwc_once once;
static void *dw_handle; /* stays loaded: reports and checks keep coming */

static int load_dw(void)
{
	void *h;

	rwc_keepout_begin(); /* not into the program's holes: keepout.h */
	h = dw_handle = dlopen(RWC_DW_SONAME, RTLD_NOW | RTLD_LOCAL);
	rwc_keepout_end();

	if (!h)
		return 0;
	/* dlsym on the handle searches libdw's dependencies too (libelf). */
#define X(f)                                       \
	if (!(*(void **)&D.f = dlsym(h, #f)))      \
		return 0;
	RWC_DW_FUNCS(X)
#undef X
	return 1;
}

const struct rwc_dwlib *rwc_dwlib(void)
{
	return rwc_once(&once, load_dw) ? &D : NULL;
}

/* ADDR lies in one of CU's ranges that do not start at 0. */
static int holds(const struct rwc_dwlib *L, Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = L->dwarf_ranges(cu, off, &base, &lo, &hi)) > 0)
		if (lo != 0 && lo <= addr && addr < hi)
			return 1;
	return 0;
}

int rwc_dw_cu_of(const struct rwc_dwlib *L, Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (L->dwarf_addrdie(dw, addr, cu))
		return 1;
	while (L->dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (L->dwarf_offdie(dw, off + hsize, cu) && holds(L, cu, addr))
			return 1;
		off = next;
	}
	return 0;
}

int rwc_dw_scopes(const struct rwc_dwlib *L, Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	Dwarf_Die *found = NULL, inner;
	int n = L->dwarf_getscopes(cu, addr, &found);

	*scopes = NULL;
	if (n <= 0) {
		free(found);
		return n < 0 ? -1 : 0;
	}
	inner = found[0];
	free(found);
	n = L->dwarf_getscopes_die(&inner, scopes);
	if (n <= 0) {
		free(*scopes);
		*scopes = NULL;
		return n < 0 ? -1 : 0;
	}
	return n;
}
