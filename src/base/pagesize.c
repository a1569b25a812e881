/* pagesize.c: the page size (see pagesize.h). */
#include "config.h"

#include "base/pagesize.h"

#include <sys/auxv.h>
#include <unistd.h>

#include "base/common.h"

uintptr_t rwc_page_size(void)
{
	static uintptr_t pg;
	uintptr_t v = __atomic_load_n(&pg, __ATOMIC_RELAXED);

	if (RWC_UNLIKELY(!v)) {
		/* The auxiliary vector, which the start has read already
		 * (sysconf's code and data are two pages of libc a process
		 * need not have touched; sysconf also costs ~40 instructions
		 * a call). */
		v = (uintptr_t)getauxval(AT_PAGESZ);
		if (!v)
			v = (uintptr_t)sysconf(_SC_PAGESIZE);
		__atomic_store_n(&pg, v, __ATOMIC_RELAXED);
	}
	return v;
}
