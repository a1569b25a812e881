/* tcache.h: answering a good call from memory the thread already holds.
 * Each thread keeps a few ranges the map view recently found good, tagged
 * with the view's generation; any map change bumps the generation and so
 * empties every thread's cache at once.  Lock-free, no shared writes, no
 * system call; async-signal-safe (a fill is published last, so a handler
 * that interrupts it sees an invalid entry). */
#ifndef RWC_TCACHE_H
#define RWC_TCACHE_H

#include "base/checks.h"
#include "base/common.h"

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

/* The range of the thread's cache entry that holds [p, p+n) good for
 * NEED: 1 (*LO, *HI set), or 0. */
static inline int rwc_fast_run(const void *p, size_t n, unsigned need, uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t a = (uintptr_t)p;
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);

	for (int i = 0; i < RWC_TCACHE_N; i++) {
		const struct rwc_tcache *t = &rwc_tcache[i];
		if (t->gen == g && a >= t->lo && a + n <= t->hi && a + n >= a && (t->ok & need) == need) {
			*lo = t->lo, *hi = t->hi;
			return 1;
		}
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

#endif
