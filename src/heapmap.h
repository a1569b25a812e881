/* heapmap.h: where malloc blocks start.  One bit per 16-byte granule of
 * address space says "a live block starts here", another "a block that
 * started here was freed"; the allocator wrappers (malloc.c) set and clear
 * them, the heap check (bounds.c) searches them backwards from a buffer
 * to the block that holds it.  Bits live in 1 GiB leaves mapped on first
 * use (MAP_NORESERVE: only the touched pages cost memory, 1/64 of the heap
 * at most); a summary bit per bitmap word keeps the backward search short.
 * Lock-free: bits change with atomic operations; a search racing a change
 * may see either state.  Optionally (rwc_hm_origins), the allocating call
 * site of each live block. */
#ifndef RWC_HEAPMAP_H
#define RWC_HEAPMAP_H

#include <stddef.h>
#include <stdint.h>

#define RWC_HM_GRAIN 16u          /* glibc's MALLOC_ALIGNMENT on 64-bit */
#define RWC_HM_SEARCH (64u << 20) /* how far back a block start is searched */
#define RWC_HM_LEAF_SHIFT 30      /* 1 GiB of address space per leaf */
#define RWC_HM_LEAVES (1u << (47 - RWC_HM_LEAF_SHIFT)) /* below 128 TiB: 1 MiB of .bss */

/* The leaves; each begins with the lowest block start it ever held. */
extern uintptr_t *rwc_hm_top[RWC_HM_LEAVES];

/* 1 when no block can start at or below A within the search: the common
 * answer for buffers that are not on the heap, in a few loads. */
static inline int rwc_hm_nothing_below(uintptr_t a)
{
	size_t i = a >> RWC_HM_LEAF_SHIFT;
	const uintptr_t *l;

	if (i >= RWC_HM_LEAVES)
		return 1;
	l = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE);
	if (l && a >= __atomic_load_n(l, __ATOMIC_ACQUIRE))
		return 0;
	/* near the leaf's start the search reaches into the leaf below */
	return (a & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >= RWC_HM_SEARCH || i == 0 ||
	       !__atomic_load_n(&rwc_hm_top[i - 1], __ATOMIC_ACQUIRE);
}

/* Records the block at P (from malloc & co.) as live, with the call site
 * ORIGIN when origins are kept; a no-op for addresses it cannot track. */
void rwc_hm_live(uintptr_t p, uintptr_t origin);
/* Records that the block at P is being freed; MARK: remember it as a
 * freed block (not for blocks whose memory is unmapped). */
void rwc_hm_freed(uintptr_t p, int mark);

/* The nearest live (FREED 0) or freed (FREED 1) block start at or below
 * A, no further back than RWC_HM_SEARCH nor below FLOOR; 0 if none. */
uintptr_t rwc_hm_prev(uintptr_t a, int freed, uintptr_t floor);

/* The call site recorded for the live block at P, or 0. */
uintptr_t rwc_hm_origin(uintptr_t p);

/* Keep call sites (RWCHECK_HEAP_ORIGINS); set before blocks are recorded
 * to have them all. */
extern int rwc_hm_origins;

/* Record blocks at all (malloc.c; 0 once the heap check is off). */
extern int rwc_heap_track;

#endif
