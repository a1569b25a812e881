/* freeq.c: free and realloc through the quarantine (see freeq.h). */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <string.h>

#include "entry/freeq.h"

#include "bounds/bigfree.h"
#include "bounds/chunk.h"
#include "bounds/heapmap.h"
#include "bounds/quarantine.h"
#include "entry/allocrec.h"
#include "entry/mapwatch.h"
#include "base/real.h"


static inline int quarantining(void)
{
	return __atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&rwc_heap_track, __ATOMIC_RELAXED) && rwc_malloc_next_glibc((void *)REAL(free));
}

/* Gives the glibc block P to the real free, telling the view what that
 * unmaps (its freed mark and sites stay: the quarantine set them). */
static void release(void *p)
{
	uintptr_t lo = 0, hi = 0;
	int m = rwc_watch_chunk(p, &lo, &hi);

	REAL(free)(p);
	rwc_watch_freed(m, lo, hi, 0);
}

/* Releases OUT (from rwc_q_put) and whatever the quarantine holds past
 * its limit, oldest first. */
static void give_back(void *out)
{
	if (out)
		release(out);
	while ((out = rwc_q_take()))
		release(out);
}

/* Gives back the reserved block E (none: start 0) and whatever the
 * reservations hold past their budget, oldest first. */
static void big_give_back(const struct rwc_big *e)
{
	struct rwc_big more;

	if (e->start && rwc_big_release(e))
		release((void *)e->start);
	while (rwc_big_take(&more))
		if (rwc_big_release(&more))
			release((void *)more.start);
}

/* Reserves the big block B (bigfree.h), counted as a free: 1 done; 0
 * not (nothing changed); -1 its pages may be gone. */
static int reserve(struct rwc_big *b)
{
	struct rwc_big out;
	int r;

	give_back(rwc_q_tick(&b->num));
	if ((r = rwc_big_put(b, &out)) > 0)
		big_give_back(&out);
	return r;
}

/* Frees the live mmapped block P by reserving its range (bigfree.h): 1
 * when done. */
static int free_big(void *p, uintptr_t caller)
{
	struct rwc_big b = {.start = (uintptr_t)p, .glibc = 1};

	if (!rwc_chunk_mapping((uintptr_t)p, &b.lo, &b.hi))
		return 0;
	b.prev = ((const size_t *)p)[-2];
	b.word = ((const size_t *)p)[-1];
	rwc_hm_freed((uintptr_t)p, 0, rwc_malloc_site(caller)); /* not live, its free site */
	return reserve(&b) != 0;
}

/* A free of the reserved block P again: ignored (it is given back once). */
static int big_again(void *p)
{
	struct rwc_big e;

	return rwc_big_find((uintptr_t)p, &e) && e.start == (uintptr_t)p;
}

/* Frees P through the quarantine when it takes it: 1 when done (held or
 * reserved, or a repeated free of a block it holds, ignored: it is given
 * back once). */
int rwc_freeq_free(void *p, uintptr_t caller)
{
	if (!p || !quarantining())
		return 0;
	if (rwc_hm_live_at((uintptr_t)p)) {
		size_t size = rwc_q_chunk_size((uintptr_t)p);

		if (!rwc_q_wants(size))
			return (rwc_chunk_word((uintptr_t)p) & RWC_CHUNK_IS_MMAPPED) && free_big(p, caller);
		if (!rwc_hm_hold((uintptr_t)p, rwc_malloc_site(caller)))
			return 0;
		give_back(rwc_q_put(p, size));
		return 1;
	}
	return (rwc_hm_was_freed((uintptr_t)p) && rwc_q_age((uintptr_t)p)) || big_again(p);
}

void rwc_freeq_moved(void *p, uintptr_t lo, uintptr_t hi, uintptr_t caller)
{
	struct rwc_big b = {.start = (uintptr_t)p, .lo = lo, .hi = hi};

	if (quarantining() && reserve(&b) > 0)
		rwc_hm_freed((uintptr_t)p, 0, rwc_malloc_site(caller));
}

/* realloc growing P (live, glibc's) to N bytes with the quarantine on: a
 * new block, the old one's usable bytes copied, the old one held (so that
 * its old address reads as freed).  *DONE 0 when this does not apply. */
void *rwc_freeq_move(void *p, size_t n, uintptr_t caller, int *done)
{
	size_t u;
	void *r;

	*done = 0;
	if (!n || !quarantining() || !rwc_hm_live_at((uintptr_t)p))
		return NULL;
	u = rwc_chunk_usable(rwc_chunk_word((uintptr_t)p));
	if (n <= u || !rwc_q_wants(rwc_q_chunk_size((uintptr_t)p)))
		return NULL; /* in place, or too large to hold */
	*done = 1;
	if (!(r = REAL(malloc)(n)))
		return NULL;
	memcpy(r, p, u);
	rwc_malloc_record(r, n, caller, (void *)REAL(malloc));
	if (rwc_hm_hold((uintptr_t)p, rwc_malloc_site(caller)))
		give_back(rwc_q_put(p, rwc_q_chunk_size((uintptr_t)p)));
	return r;
}
