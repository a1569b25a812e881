/* fastpath.h: the good-call fast path of the entry points: a buffer or a
 * vector call answered from the thread's verdict cache (vcache.h), its
 * frame cache, its cache of good ranges (tcache.h) and the bounds checks'
 * fast path (fastbounds.h); a good buffer's object then goes into the
 * verdict cache.  Lock-free, no shared writes, no system call;
 * async-signal-safe. */
#ifndef RWC_FASTPATH_H
#define RWC_FASTPATH_H

#include <limits.h>
#include <sys/socket.h>

#include "base/common.h"
#include "bounds/fastbounds.h"
#include "bounds/segcache.h"
#include "bounds/vcache.h"
#include "check/check.h"
#include "mapview/tcache.h"

/* A buffer call that needs no further look: count sane, bytes known good. */
static inline int rwc_fast_buf(const void *p, size_t n, unsigned need)
{
	return RWC_LIKELY(n <= (size_t)SSIZE_MAX) && rwc_quick_range(p, n, need);
}

/* The same, and [a, a+n) within its heap block, stack frame or global
 * (SP the caller's stack pointer, PC its return address), when the
 * verdict cache (vcache.h) did not hold it; then the cache remembers the
 * object that holds it. */
static inline __attribute__((always_inline)) int rwc_good_buf(uintptr_t a, size_t n, unsigned need,
							       const void *sp, const void *pc)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	const void *p = (const void *)a;
	int m;

	if (n > (size_t)SSIZE_MAX)
		return 0;
	rwc_heap_seen.l = 0;
	rwc_glob_seen = 0;
	/* a buffer in a frame this thread walked for this call: a live frame
	 * of its stack, mapped and writable */
	if (a >= (uintptr_t)sp && n <= UINTPTR_MAX - a && rwc_stack_in_frame(a, a + n, (uintptr_t)sp, (uintptr_t)pc))
		return 1;
	m = rwc_quick_range(p, n, need);
	if (!m || !rwc_bounds_fast(p, n, sp, pc)) { /* what the checks resume from */
		rwc_fast_said.gen = 0; /* (a signal handler meanwhile sees nothing said) */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rwc_fast_said.a = a, rwc_fast_said.n = n, rwc_fast_said.need = need, rwc_fast_said.map = m;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rwc_fast_said.gen = g;
		return 0;
	}
	rwc_vc_seen(a, n, need, (uintptr_t)sp, g); /* found in an object? */
	return 1;
}

/* The span [LO, HI) of a vector's segments lies in one variable of a
 * stack frame the stack check walked (so each segment does): one look of
 * the frame cache instead of one a segment. */
static inline int rwc_span_one_var(unsigned on, uintptr_t lo, uintptr_t hi, const void *sp, const void *pc)
{
	return (on & RWC_CHECK_STACK) && lo >= (uintptr_t)sp && rwc_stack_in_frame(lo, hi, (uintptr_t)sp, (uintptr_t)pc);
}

/* The same for a vector call: count, array, total, every segment (and
 * its heap block or stack frame; SP and PC as for rwc_bounds_fast).  The
 * segments usually lie in one range the thread knows good (one buffer,
 * one mapping): then the span from the lowest to the highest byte is
 * looked up once instead of each segment (exact: every byte of the span
 * is good, so every segment's is); so is the bounds checks' first look
 * (no heap block below any of it, all of it below the stack pointer), and
 * first of all the verdict cache (the whole span in one block or global).
 * Before that, the segment cache (segcache.h: each segment a block's
 * start); else separate blocks found without it fill it. */
static inline int rwc_fast_iov(const struct iovec *iov, long iovcnt, unsigned need, size_t *total,
			       const void *sp, const void *pc)
{
	size_t sum = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0, floor;
	unsigned on = rwc_bounds_on();
	uint64_t g;

	/* (and the array inside its own object: callcheck.c array_object) */
	if (iovcnt < 0 || iovcnt > IOV_MAX || !rwc_quick_range(iov, (size_t)iovcnt * sizeof *iov, RWC_NEED_READ) ||
	    (RWC_UNLIKELY(on) && !rwc_bounds_fast_on(on, iov, (size_t)iovcnt * sizeof *iov, sp, pc, 0)))
		return 0;
	if ((on & RWC_CHECK_HEAP) && rwc_vs_maybe(iov, iovcnt) && rwc_vs_all(iov, iovcnt, need, (uintptr_t)sp, total))
		return 1; /* every segment a block's start the segment cache holds */
	for (long i = 0; i < iovcnt; i++) {
		uintptr_t b = (uintptr_t)iov[i].iov_base;
		size_t len = iov[i].iov_len;

		if (len > (size_t)SSIZE_MAX - sum || b + len < b)
			return 0;
		sum += len;
		if (len) {
			lo = b < lo ? b : lo;
			hi = b + len > hi ? b + len : hi;
		}
	}
	if (hi > lo && rwc_vc_off_stack(lo, (uintptr_t)sp) && rwc_vc_lookup(lo, hi - lo, need)) {
		*total = sum; /* every segment in one object of the verdict cache */
		return 1;
	}
	g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE), floor = lo & ~(uintptr_t)4095; /* the span's pages: all mapped */
	if (hi > lo && !rwc_fast_range((const void *)lo, hi - lo, need)) {
		floor = UINTPTR_MAX; /* each segment's own page only */
		for (long i = 0; i < iovcnt; i++)
			if (!rwc_quick_range(iov[i].iov_base, iov[i].iov_len, need))
				return 0;
	}
	rwc_heap_seen.l = 0;
	if (RWC_UNLIKELY(on) && hi > lo && /* the same for the bounds checks' first look */
	    !((!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below_span(lo, rwc_hm_reach(hi - 1))) &&
	      (!(on & RWC_CHECK_STACK) || hi - 1 < (uintptr_t)sp) &&
	      (!(on & RWC_CHECK_GLOBAL) || rwc_glob_fast_span(lo, hi)))) {
		int blocks = !(on & RWC_CHECK_HEAP) ? 0 :
			rwc_vs_blocks(iov, iovcnt, lo, hi, floor, (on & RWC_CHECK_STACK) ? (uintptr_t)sp : UINTPTR_MAX,
				      need, g);

		if (blocks > 1) { /* in separate blocks: no one object holds the span */
			*total = sum;
			return 1;
		}
		if (!blocks && !rwc_span_one_var(on, lo, hi, sp, pc))
			for (long i = 0; i < iovcnt; i++)
				if (!rwc_bounds_fast_on(on, iov[i].iov_base, iov[i].iov_len, sp, pc, 0))
					return 0;
	}
	/* the span may lie in one object (the last segment's block, if any,
	 * starts at or below its first byte): the verdict cache may take it */
	if (on && hi > lo && rwc_heap_seen.l <= lo)
		rwc_vc_note(lo, hi - lo, need, (uintptr_t)sp, g);
	*total = sum;
	return 1;
}

/* The same for an argument list (common.h's struct rwc_arg): every
 * argument's bytes known good and within the compiler's size where it
 * has one, an in/out length read only once its own entry (earlier in the
 * list) was found good. */
static inline __attribute__((always_inline)) int rwc_fast_args(const struct rwc_arg *a, unsigned na,
							       const void *sp, const void *pc)
{
	for (unsigned i = 0; i < na; i++) {
		size_t n = a[i].n;

		if (a[i].kind != RWC_ARG_MEM || !a[i].p)
			continue;
		if (a[i].lenp)
			n = *(const socklen_t *)a[i].lenp;
		if (a[i].has_obj && n > a[i].obj)
			return 0;
		if (!rwc_fast_buf(a[i].p, n, a[i].need) || !rwc_bounds_fast(a[i].p, n, sp, pc))
			return 0;
	}
	return 1;
}

#endif
