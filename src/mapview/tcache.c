/* tcache.c: the per-thread cache of ranges the map view found good (see
 * tcache.h): its entries and their fill.  Lock-free, signal-safe. */
#include "config.h"

#include "mapview/tcache.h"

__thread struct rwc_tcache rwc_tcache[RWC_TCACHE_N] __attribute__((tls_model("initial-exec")));
__thread unsigned rwc_tcache_next __attribute__((tls_model("initial-exec")));

void rwc_tcache_fill(uint64_t gen, uintptr_t lo, uintptr_t hi, unsigned ok)
{
	struct rwc_tcache *t = &rwc_tcache[rwc_tcache_next++ % RWC_TCACHE_N];

	t->gen = 0; /* a signal handler arriving now sees no entry */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->lo = lo;
	t->hi = hi;
	t->ok = ok;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->gen = gen;
}
