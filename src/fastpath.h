/* fastpath.h: answering a good call from memory the thread already holds.
 * Each thread keeps a few ranges the map view recently found good, tagged
 * with the view's generation; any map change bumps the generation and so
 * empties every thread's cache at once.  Lock-free, no shared writes, no
 * system call; async-signal-safe (a fill is published last, so a handler
 * that interrupts it sees an invalid entry). */
#ifndef RWC_FASTPATH_H
#define RWC_FASTPATH_H

#include <limits.h>

#include "bounds.h"
#include "common.h"

#define RWC_TCACHE_N 4

struct rwc_tcache {
	uint64_t gen;      /* 0: empty */
	uintptr_t lo, hi;  /* [lo, hi) is good for the needs in ok */
	unsigned ok;       /* enum rwc_need bits */
};

extern __thread struct rwc_tcache rwc_tcache[RWC_TCACHE_N] __attribute__((tls_model("initial-exec")));
extern __thread unsigned rwc_tcache_next __attribute__((tls_model("initial-exec")));
extern uint64_t rwc_gen; /* the map view's generation (snapshot.c) */

/* Remembers that [lo, hi) was good for OK under generation GEN. */
void rwc_tcache_fill(uint64_t gen, uintptr_t lo, uintptr_t hi, unsigned ok);

static inline int rwc_fast_range(const void *p, size_t n, unsigned need)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + n;
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);

	if (n == 0)
		return 1;
	if (hi < lo)
		return 0;
	for (int i = 0; i < RWC_TCACHE_N; i++) {
		const struct rwc_tcache *t = &rwc_tcache[i];
		if (t->gen == g && lo >= t->lo && hi <= t->hi && (t->ok & need) == need)
			return 1;
	}
	return 0;
}

/* What the published snapshot says of [lo, lo+n) for NEED (snapshot.c):
 * 1 good (and the thread's cache now knows it); 0 not good (it is current
 * and its regions say so, no overlay entry touching the range); -1 it
 * cannot tell (none is current, it is being written, an overlay entry
 * touches the range). */
int rwc_snap_lookup(uintptr_t lo, size_t n, unsigned need);

/* The published snapshot says [lo, lo+n) is good: 1; anything else, or
 * any doubt: 0. */
static inline int rwc_snap_good(uintptr_t lo, size_t n, unsigned need)
{
	return rwc_snap_lookup(lo, n, need) > 0;
}

static inline int rwc_quick_range(const void *p, size_t n, unsigned need)
{
	return rwc_fast_range(p, n, need) || rwc_snap_good((uintptr_t)p, n, need);
}

/* glibc's chunk header of the live block at L, read when it is on the
 * page of P (mapped: P is) or in a range the thread knows readable. */
static inline int rwc_heap_quick(uintptr_t p, size_t n)
{
	uintptr_t l = rwc_hm_near(p);
	size_t usable;

	if (!l || (((l - 16) ^ p) >> 12 && !rwc_fast_range((const void *)(l - 16), 16, RWC_NEED_READ)))
		return 0;
	usable = rwc_chunk_usable(((const size_t *)l)[-1]);
	return p - l < usable && n <= usable - (p - l);
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
	if ((!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below(a) || rwc_heap_quick(a, n)) &&
	    (!(on & RWC_CHECK_STACK) || a < (uintptr_t)sp0))
		return 1;
	return rwc_bounds_good(a, n, (uintptr_t)sp0, (uintptr_t)pc);
}

static inline __attribute__((always_inline)) int rwc_bounds_fast(const void *p, size_t n, const void *sp0,
								 const void *pc)
{
	return rwc_bounds_fast_on(rwc_bounds_on(), p, n, sp0, pc);
}

/* A buffer call that needs no further look: count sane, bytes known good. */
static inline int rwc_fast_buf(const void *p, size_t n, unsigned need)
{
	return RWC_LIKELY(n <= (size_t)SSIZE_MAX) && rwc_quick_range(p, n, need);
}

/* The same for a vector call: count, array, total, every segment (and
 * its heap block or stack frame; SP and PC as for rwc_bounds_fast).  The
 * segments usually lie in one range the thread knows good (one buffer,
 * one mapping): then the span from the lowest to the highest byte is
 * looked up once instead of each segment (exact: every byte of the span
 * is good, so every segment's is); so is the bounds checks' first look
 * (no heap block below any of it, all of it below the stack pointer). */
static inline int rwc_fast_iov(const struct iovec *iov, long iovcnt, unsigned need, size_t *total,
			       const void *sp, const void *pc)
{
	size_t sum = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	unsigned on = rwc_bounds_on();

	if (iovcnt < 0 || iovcnt > IOV_MAX ||
	    !rwc_quick_range(iov, (size_t)iovcnt * sizeof *iov, RWC_NEED_READ))
		return 0;
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
	if (hi > lo && !rwc_fast_range((const void *)lo, hi - lo, need))
		for (long i = 0; i < iovcnt; i++)
			if (!rwc_quick_range(iov[i].iov_base, iov[i].iov_len, need))
				return 0;
	if (RWC_UNLIKELY(on) && hi > lo && /* the same for the bounds checks' first look */
	    !((!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below_span(lo, hi - 1)) &&
	      (!(on & RWC_CHECK_STACK) || hi - 1 < (uintptr_t)sp)))
		for (long i = 0; i < iovcnt; i++)
			if (!rwc_bounds_fast_on(on, iov[i].iov_base, iov[i].iov_len, sp, pc))
				return 0;
	*total = sum;
	return 1;
}

#endif
