/* dwlib.c: the one dlopen() of libdw (see dwlib.h).  Report lock only;
 * allocates (the loader's). */
#include "config.h"

#include "frames/dwlib.h"

#include <dlfcn.h>
#include <link.h>
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
	h = dw_handle = REAL(dlopen)(RWC_DW_SONAME, RTLD_NOW | RTLD_LOCAL);
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
