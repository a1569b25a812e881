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

/* The live block rwc_heap_in last found holding a buffer in this thread,
 * as it found it when asked to (l 0: none since cleared): what the verdict
 * cache (vcache.h) remembers of a good call's block without a second
 * search. */
struct rwc_heap_seen {
	uintptr_t l;
	size_t usable;
	unsigned slack;
};
extern __thread struct rwc_heap_seen rwc_heap_seen __attribute__((tls_model("initial-exec")));

/* [p, p+n) within the bytes asked for of the live block at L (slack byte
 * SLACK, heapmap.h), from glibc's chunk header, read when it is on the
 * page of P (mapped: P is) or in a range the thread knows readable. */
static inline __attribute__((always_inline)) int rwc_heap_in(uintptr_t l, unsigned slack, uintptr_t p, size_t n, int seen)
{
	size_t usable, req;

	if (((l - RWC_CHUNK_HDR) ^ p) >> 12 &&
	    !rwc_fast_range((const void *)(l - RWC_CHUNK_HDR), RWC_CHUNK_HDR, RWC_NEED_READ))
		return 0;
	usable = rwc_chunk_usable(rwc_chunk_word(l));
	if (p - l >= usable)
		return 0;
	req = rwc_hm_requested_quick(slack, usable);
	if (req == SIZE_MAX && (req = rwc_hm_escaped(l)) > usable) /* escaped: a large block */
		return 0;
	if (p - l >= req || n > req - (p - l))
		return 0;
	if (seen) {
		rwc_heap_seen.usable = usable;
		rwc_heap_seen.slack = slack;
		rwc_heap_seen.l = l;
	}
	return 1;
}

/* A buffer in a live block: the block starting in the buffer's own bitmap
 * word, or one this thread found lately (an interior pointer of a large
 * block, without searching the bitmap backwards). */
static inline __attribute__((always_inline)) int rwc_heap_quick(uintptr_t p, size_t n, int seen)
{
	unsigned slack = 0;
	uintptr_t l = rwc_hm_near_slack(p, &slack);

	if (l) /* the nearest start: the block holding p starts here or nowhere */
		return rwc_heap_in(l, slack, p, n, seen);
	for (int i = 0; i < RWC_HBLOCKS; i++) {
		l = rwc_hblock[i];
		if (l && l <= p && p - l < RWC_HM_SEARCH && rwc_hm_live_slack(l, &slack) && rwc_heap_in(l, slack, p, n, seen))
			return 1;
	}
	return 0;
}

/* The bounds checks' fast path, for the checks ON in force: a buffer that
 * is neither on the heap nor on the stack, or one inside a block just
 * found, in a few loads (SEEN: the block goes into rwc_heap_seen). */
static inline __attribute__((always_inline)) int rwc_bounds_fast_on(unsigned on, const void *p, size_t n,
								    const void *sp0, const void *pc, int seen)
{
	uintptr_t a = (uintptr_t)p;
	int in_heap = 0;

	if (RWC_LIKELY(!on) || n == 0)
		return 1;
	/* a stack buffer in a frame this thread just walked: proven so, even
	 * where the stack lies in a heap block (sigaltstack) */
	if ((on & RWC_CHECK_STACK) && a >= (uintptr_t)sp0 && n <= UINTPTR_MAX - a &&
	    rwc_stack_in_frame(a, a + n, (uintptr_t)sp0, (uintptr_t)pc))
		return 1;
	/* (its reach: a block just above the range has its size word in it,
	 * checks.h rwc_heap_underflow) */
	if ((on & RWC_CHECK_HEAP) && !rwc_hm_nothing_below(rwc_hm_reach(n <= UINTPTR_MAX - a ? a + n - 1 : UINTPTR_MAX))) {
		if (!rwc_heap_quick(a, n, seen))
			return rwc_bounds_good(a, n, (uintptr_t)sp0, (uintptr_t)pc);
		in_heap = 1; /* not a global */
	}
	/* at or above the sp: a stack buffer not cached yet, unless above
	 * this thread's frames (a heap block, a library's global...) */
	if ((on & RWC_CHECK_STACK) && a >= (uintptr_t)sp0 && !rwc_stack_above(a, (uintptr_t)sp0))
		return rwc_bounds_good(a, n, (uintptr_t)sp0, (uintptr_t)pc);
	if (in_heap || !(on & RWC_CHECK_GLOBAL) || rwc_glob_fast(a, n))
		return 1;
	return rwc_bounds_good(a, n, (uintptr_t)sp0, (uintptr_t)pc);
}

static inline __attribute__((always_inline)) int rwc_bounds_fast(const void *p, size_t n, const void *sp0,
								 const void *pc)
{
	return rwc_bounds_fast_on(rwc_bounds_on(), p, n, sp0, pc, 1);
}

#endif
