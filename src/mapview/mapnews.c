/* mapnews.c: what a map-changing call tells the map view (see mapnews.h):
 * the exact change when the call succeeded, "stale" when it may have
 * changed something unknown.  Signal-safe, lock-free, no allocation. */
#include "config.h"

#include "mapview/mapnews.h"

#include <sys/mman.h>
#include <unistd.h>

#include "base/checks.h"
#include "base/common.h"
#include "mapview/snapshot.h"

/* The page size, asked once (sysconf costs ~40 instructions a call). */
static uintptr_t page_size(void)
{
	static uintptr_t pg;
	uintptr_t v = __atomic_load_n(&pg, __ATOMIC_RELAXED);

	if (RWC_UNLIKELY(!v))
		__atomic_store_n(&pg, v = (uintptr_t)sysconf(_SC_PAGESIZE), __ATOMIC_RELAXED);
	return v;
}

static uintptr_t page_end(uintptr_t a, size_t len)
{
	uintptr_t pg = page_size();

	return len > UINTPTR_MAX - a - pg ? 0 : (a + len + pg - 1) & ~(pg - 1);
}

static int prot_bits(int prot, int flags)
{
	return ((prot & PROT_READ) ? RWC_PROT_R : 0) | ((prot & PROT_WRITE) ? RWC_PROT_W : 0) |
	       ((prot & PROT_EXEC) ? RWC_PROT_X : 0) | ((flags & MAP_SHARED) ? RWC_PROT_SHARED : 0);
}

void rwc_watch_mmap(void *r, size_t len, int prot, int flags)
{
	if (r == MAP_FAILED) {
		if (flags & MAP_FIXED) /* the old mapping may be gone */
			rwc_map_changed();
		return;
	}
	rwc_snap_set((uintptr_t)r, page_end((uintptr_t)r, len), prot_bits(prot, flags));
}

void rwc_watch_munmap(void *addr, size_t len, int failed)
{
	if (!failed)
		rwc_snap_set((uintptr_t)addr, page_end((uintptr_t)addr, len), -1);
}

void rwc_watch_mprotect(void *addr, size_t len, int prot, int failed)
{
	if (failed) /* may have changed part of the range */
		rwc_map_changed();
	else
		rwc_snap_set((uintptr_t)addr, page_end((uintptr_t)addr, len), prot_bits(prot, 0));
}

void rwc_watch_brk(void)
{
	rwc_snap_heap_top();
}

int rwc_prot_cut;

void rwc_note_prot_cut(int prot)
{
	if ((prot & (PROT_READ | PROT_WRITE)) != (PROT_READ | PROT_WRITE) &&
	    !__atomic_load_n(&rwc_prot_cut, __ATOMIC_RELAXED))
		__atomic_store_n(&rwc_prot_cut, 1, __ATOMIC_RELAXED);
}
