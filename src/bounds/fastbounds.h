/* fastbounds.h: the bounds checks' fast path: a buffer that is neither on
 * the heap nor on the stack, or one inside a block or frame just found, in
 * a few loads; anything else goes on to rwc_bounds_good (bounds.h).  Lock-free,
 * async-signal-safe, no system call. */
#ifndef RWC_FASTBOUNDS_H
#define RWC_FASTBOUNDS_H

#include "bounds/bounds.h"
#include "bounds/chunk.h"
#include "bounds/globals.h"
#include "mapview/tcache.h"

/* glibc's chunk header of the live block at L, read when it is on the
 * page of P (mapped: P is) or in a range the thread knows readable; the
 * range must stay within the bytes the program asked for (heapmap.h). */
static inline int rwc_heap_quick(uintptr_t p, size_t n)
{
	unsigned slack = 0;
	uintptr_t l = rwc_hm_near_slack(p, &slack);
	size_t usable, req;

	if (!l || (((l - RWC_CHUNK_HDR) ^ p) >> 12 &&
		   !rwc_fast_range((const void *)(l - RWC_CHUNK_HDR), RWC_CHUNK_HDR, RWC_NEED_READ)))
		return 0;
	usable = rwc_chunk_usable(rwc_chunk_word(l));
	if (p - l >= usable || (req = rwc_hm_requested_quick(slack, usable)) == SIZE_MAX)
		return 0;
	return p - l < req && n <= req - (p - l);
}

/* The bounds checks' fast path, for the checks ON in force: a buffer that
 * is neither on the heap nor on the stack, or one inside a block just
 * found, in a few loads. */
static inline __attribute__((always_inline)) int rwc_bounds_fast_on(unsigned on, const void *p, size_t n,
								    const void *sp0, const void *pc)
{
	uintptr_t a = (uintptr_t)p;

	if (RWC_LIKELY(!on) || n == 0)
		return 1;
	if (!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below(a) || rwc_heap_quick(a, n)) {
		if ((on & RWC_CHECK_STACK) && a >= (uintptr_t)sp0) {
			/* a stack buffer in a frame this thread just walked */
			if (n <= UINTPTR_MAX - a && rwc_stack_cached(a, a + n, (uintptr_t)sp0, (uintptr_t)pc))
				return 1;
		} else {
			return !(on & RWC_CHECK_GLOBAL) || rwc_glob_fast(a, n) || rwc_glob_good(a, n);
		}
	}
	return rwc_bounds_good(a, n, (uintptr_t)sp0, (uintptr_t)pc);
}

static inline __attribute__((always_inline)) int rwc_bounds_fast(const void *p, size_t n, const void *sp0,
								 const void *pc)
{
	return rwc_bounds_fast_on(rwc_bounds_on(), p, n, sp0, pc);
}

#endif
