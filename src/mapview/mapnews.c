/* mapnews.c: what a map-changing call tells the map view (see mapnews.h):
 * the exact change when the call succeeded, "stale" when it may have
 * changed something unknown.  Signal-safe, lock-free, no allocation. */
#include "config.h"

#include "mapview/mapnews.h"

#include <sys/mman.h>
#include <unistd.h>

#include "base/checks.h"
#include "base/common.h"
#include "base/pagesize.h"
#include "mapview/snapshot.h"

static uintptr_t page_end(uintptr_t a, size_t len)
{
	uintptr_t pg = rwc_page_size();

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

/* The cut span (mapnews.h): ~its lowest byte and its end, each only ever
 * raised (0, 0: none). */
static uintptr_t cut_nlo RWC_START_DATA, cut_hi RWC_START_DATA;

static void raise_to(uintptr_t *p, uintptr_t v)
{
	uintptr_t c = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (c < v && !__atomic_compare_exchange_n(p, &c, v, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

#define CUT_UNIT ((uintptr_t)0xffff)

void rwc_note_cut(uintptr_t lo, size_t len)
{
	uintptr_t hi = len > UINTPTR_MAX - lo - CUT_UNIT ? UINTPTR_MAX : (lo + len + CUT_UNIT) & ~CUT_UNIT;

	raise_to(&cut_nlo, ~(lo & ~CUT_UNIT));
	raise_to(&cut_hi, hi);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* (before the call it tells of) */
}

int rwc_cut_touches(uintptr_t lo, uintptr_t hi)
{
	return lo < __atomic_load_n(&cut_hi, __ATOMIC_ACQUIRE) && hi > ~__atomic_load_n(&cut_nlo, __ATOMIC_ACQUIRE);
}
