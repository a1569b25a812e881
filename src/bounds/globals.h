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

/* A thread's ranges, all of the map view's generation GEN (0: none):
 * outside every image NONE (heap and stack buffers, looked at first: the
 * last page found so, or from the second such buffer of a generation on,
 * the whole run of unnamed mappings and holes around it that no image
 * reaches into); in modules' images E, the last one found first.  One TLS
 * object: one address to compute. */
struct rwc_gcache_set {
	uint64_t gen;
	struct rwc_gcache e[RWC_GCACHE_N];
	struct rwc_gcache none;
	unsigned misses; /* buffers found in no image under GEN */
};

extern __thread struct rwc_gcache_set rwc_gcache __attribute__((tls_model("initial-exec")));
/* rwc_glob_fast found the buffer in an object (not a run without any):
 * set there, cleared by its user (the verdict cache's fill, vcache.h). */
extern __thread int rwc_glob_seen __attribute__((tls_model("initial-exec")));

/* [a, a+n) known good from this thread's cache (n > 0).  Entries of one
 * generation never overlap but for copies of one range: the first that
 * holds A decides. */
static inline int rwc_glob_fast(uintptr_t a, size_t n)
{
	const struct rwc_gcache_set *c = &rwc_gcache;

	if (c->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
	if (a - c->none.lo < c->none.span)
		return 1;
	for (const struct rwc_gcache *e = c->e; e < c->e + RWC_GCACHE_N; e++)
		if (a - e->lo < e->span) {
			rwc_glob_seen = e->lim != UINTPTR_MAX;
			return n <= e->lim - a;
		}
	return 0;
}

/* The span [lo, hi) of several buffers lies wholly in one cached range:
 * each buffer in it is good. */
static inline int rwc_glob_fast_span(uintptr_t lo, uintptr_t hi)
{
	const struct rwc_gcache_set *c = &rwc_gcache;

	if (c->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
	for (int i = 0; i < RWC_GCACHE_N; i++)
		if (lo - c->e[i].lo < c->e[i].span && hi - c->e[i].lo <= c->e[i].span)
			return 1;
	return lo - c->none.lo < c->none.span && hi - c->none.lo <= c->none.span;
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
