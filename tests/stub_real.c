/* stub_real.c: what heapmap.c and depot.c need of the library, for their
 * unit test: the "real" mmap/munmap are libc's, and the map view hears
 * nothing. */
#include "config.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "mapview/mapnews.h"
#include "base/real.h"

void *rwc_real_ptr[RWC_REAL_COUNT];
__thread int rwc_binding __attribute__((tls_model("initial-exec")));

void *rwc_real_bind(unsigned idx)
{
	if (idx == RWC_IDX_mmap)
		return (void *)&mmap;
	if (idx == RWC_IDX_munmap)
		return (void *)&munmap;
	abort();
}

void rwc_watch_mmap(void *result, size_t len, int prot, int flags)
{
	(void)result, (void)len, (void)prot, (void)flags;
}

void rwc_watch_munmap(void *addr, size_t len, int failed)
{
	(void)addr, (void)len, (void)failed;
}
