/* ownmap.c: the library's own mappings (see ownmap.h). */
#include "config.h"

#include "mapview/ownmap.h"

#include <errno.h>
#include <sys/mman.h>

#include "base/real.h"
#include "mapview/mapnews.h"

void *rwc_own_mmap(size_t len)
{
	int e = errno;
	void *p = REAL(mmap)(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	rwc_watch_mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	errno = e;
	return p == MAP_FAILED ? NULL : p;
}

void rwc_own_munmap(void *p, size_t len)
{
	int e = errno;

	rwc_watch_munmap(p, len, REAL(munmap)(p, len) != 0);
	errno = e;
}
