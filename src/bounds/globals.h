/* globals.h: the global check (RWCHECK_CHECKS global): a buffer that
 * starts inside a data object of a module (elfobjs.h) must end inside it.
 * Modules are found with glibc's _dl_find_object (lock-free); a module's
 * objects are loaded the first time a checked buffer lies in its image,
 * by a thread that may load (never in a signal handler: then no verdict).
 * Each thread keeps a few ranges recently found good: an object (the
 * whole range must fit) or a run no object covers (only the start
 * counts), tagged with the map view's generation.  The fast parts are
 * lock-free and async-signal-safe; the full check allocates. */
#ifndef RWC_GLOBALS_H
#define RWC_GLOBALS_H

#include <stddef.h>
#include <stdint.h>

#include "base/checks.h"
#include "mapview/tcache.h"

#define RWC_GCACHE_N 4

/* One good range: A is in it when a - lo < span; then [a, a+n) is good
 * when n <= lim - a (an object: lim is its end; a run without objects,
 * where only the start counts: lim is UINTPTR_MAX).  span 0: empty. */
struct rwc_gcache {
	uintptr_t lo, span, lim;
};

/* The entries hold for the map view's generation rwc_gcache_gen (0:
 * none); rwc_gcache_last is the one filled last (looked at first). */
extern __thread uint64_t rwc_gcache_gen __attribute__((tls_model("initial-exec")));
extern __thread unsigned rwc_gcache_last __attribute__((tls_model("initial-exec")));
extern __thread struct rwc_gcache rwc_gcache[RWC_GCACHE_N] __attribute__((tls_model("initial-exec")));

/* [a, a+n) known good from this thread's cache (n > 0).  Entries of one
 * generation never overlap but for copies of one object: the first that
 * holds A decides. */
static inline int rwc_glob_fast(uintptr_t a, size_t n)
{
	const struct rwc_gcache *e = &rwc_gcache[rwc_gcache_last];

	if (rwc_gcache_gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
	if (a - e->lo < e->span)
		return n <= e->lim - a;
	for (int i = 0; i < RWC_GCACHE_N; i++) {
		e = &rwc_gcache[i];
		if (a - e->lo < e->span)
			return n <= e->lim - a;
	}
	return 0;
}

/* The span [lo, hi) of several buffers lies wholly in one cached range:
 * each buffer in it is good. */
static inline int rwc_glob_fast_span(uintptr_t lo, uintptr_t hi)
{
	if (rwc_gcache_gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
	for (int i = 0; i < RWC_GCACHE_N; i++) {
		const struct rwc_gcache *e = &rwc_gcache[i];

		if (lo - e->lo < e->span && hi - e->lo <= e->span)
			return 1;
	}
	return 0;
}

/* 1: [a, a+n) is good for the global check (not in an object, or in one
 * wholly, or the module's objects not known and not loadable here); 0:
 * ask rwc_glob_check.  Lock-free, async-signal-safe; fills the cache. */
int rwc_glob_good(uintptr_t a, size_t n);

/* The full check: RWC_OK or RWC_GLOBAL_OVERFLOW with the object in B
 * (kind RWC_HOLDER_GLOBAL, name, module, into) and the bad bytes
 * [*bad_lo, *bad_hi).  Loads the module's objects when this thread may. */
enum rwc_problem rwc_glob_check(uintptr_t a, size_t n, struct rwc_bounds *b, uintptr_t *bad_lo,
				uintptr_t *bad_hi);

#endif
