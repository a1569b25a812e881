/* stub_real.c: what heapmap.c, depot.c and ownheap.c need of the library,
 * for their unit tests: the "real" mmap/munmap/syscall are libc's, and the
 * map view hears nothing. */
#include "config.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapview/mapnews.h"
#include "mapview/ownmap.h"
#include "base/real.h"

void *rwc_real_ptr[RWC_REAL_COUNT];
__thread int rwc_binding __attribute__((tls_model("initial-exec")));

void *rwc_real_bind(unsigned idx)
{
	if (idx == RWC_IDX_mmap)
		return (void *)&mmap;
	if (idx == RWC_IDX_munmap)
		return (void *)&munmap;
	if (idx == RWC_IDX_syscall) /* once.h: is a lock's owner gone? */
		return (void *)&syscall;
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

void *rwc_own_mmap(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void rwc_own_munmap(void *p, size_t len)
{
	munmap(p, len);
}
