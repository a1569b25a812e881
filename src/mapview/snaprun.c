/* snaprun.c: the snapshot's runs of unnamed regions (see snapshot.h,
 * rwc_snap_unnamed_run): read lock-free under the snapshot's sequence
 * count, as its lookups are. */
#include "config.h"

#include "mapview/snapshot.h"

#include "mapview/snapdata.h"

int rwc_snap_unnamed_run(uint64_t g, uintptr_t a, uintptr_t *lo, uintptr_t *hi)
{
	int i = __atomic_load_n(&rwc_snap_cur, __ATOMIC_ACQUIRE);
	const struct snap *s;
	unsigned seq, nn, j, len;
	size_t n, ntop, k;

	if (i < 0)
		return 0;
	s = snap_at(i);
	seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	if ((seq & 1) || __atomic_load_n(&s->gen, __ATOMIC_RELAXED) != g ||
	    !__atomic_load_n(&s->complete, __ATOMIC_RELAXED) || !__atomic_load_n(&s->named_ok, __ATOMIC_RELAXED))
		return 0;
	n = __atomic_load_n(&s->n, __ATOMIC_RELAXED);
	ntop = __atomic_load_n(&s->ntop, __ATOMIC_RELAXED);
	nn = __atomic_load_n(&s->nnamed, __ATOMIC_RELAXED);
	if (n > SNAP_CAP || ntop > SNAP_CAP / BLOCK || nn > NAMED_CAP)
		return 0;
	k = rwc_snap_find(s, n, ntop, a); /* the first region that ends above A */
	for (j = 0, len = nn; len > 0;) { /* the first named region from k on */
		unsigned half = len / 2;

		if (s->named[j + half] < k)
			j += half + 1, len -= half + 1;
		else
			len = half;
	}
	if (j < nn && s->named[j] == k && (s->ent[k].sp & ~(uintptr_t)PROT_MASK) <= a)
		return 0; /* in a named region */
	*lo = j > 0 && s->named[j - 1] < n ? s->ent[s->named[j - 1]].end : 0;
	*hi = j < nn && s->named[j] < n ? s->ent[s->named[j]].sp & ~(uintptr_t)PROT_MASK : UINTPTR_MAX;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq && *lo <= a && a < *hi;
}
