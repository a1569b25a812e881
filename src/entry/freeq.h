/* freeq.h: free and realloc through the quarantine (bounds/quarantine.h).
 * Only blocks the heap map has live are held (glibc's, recorded by
 * malloc.c's wrappers), only while glibc serves and the heap check
 * records blocks, and none larger than a quarter of the limit; what
 * comes out of the quarantine goes to the real free, the view told what
 * that unmaps.  No lock, no allocation; errno kept. */
#ifndef RWC_FREEQ_H
#define RWC_FREEQ_H

#include <stddef.h>
#include <stdint.h>

#include "base/common.h"
#include "bounds/heapmap.h"
#include "bounds/sites.h"

/* free(P) from CALLER: 1 when done here (held, or a repeated free of a
 * block the quarantine holds, ignored: it is given back once); 0: the
 * caller frees it as without the quarantine. */
int rwc_freeq_free(void *p, uintptr_t caller);

/* realloc(P, N) from CALLER growing P past its usable size: a new block,
 * the old one's usable bytes copied, the old one held (its address then
 * reads as freed); NULL with *DONE 1 when malloc failed (P untouched).
 * *DONE 0 when this does not apply (the caller reallocs as usual). */
void *rwc_freeq_move(void *p, size_t n, uintptr_t caller, int *done);

/* From malloc.c: the site id (sites.h) of a call from CALLER (its trace
 * with RWCHECK_HEAP_ORIGINS above 1; 0 with sites off); records the block
 * R that F, the next allocator's function, gave for REQ bytes (SIZE_MAX:
 * keep what is recorded); is F glibc's (its chunk headers readable)?
 * The answer of the first call stands for every later one. */
uint32_t rwc_malloc_site_traced(uintptr_t caller);
void rwc_malloc_record(void *r, size_t req, uintptr_t caller, void *f);
int rwc_malloc_next_glibc_slow(void *f);
extern int rwc_malloc_glibc_next; /* -1 until asked, then the answer */

static inline uint32_t rwc_malloc_site(uintptr_t caller)
{
	int o = rwc_hm_origins;

	if (RWC_LIKELY(o == 1))
		return rwc_site_id(caller);
	return o ? rwc_malloc_site_traced(caller) : 0;
}

static inline int rwc_malloc_next_glibc(void *f)
{
	int v = __atomic_load_n(&rwc_malloc_glibc_next, __ATOMIC_RELAXED);

	return RWC_LIKELY(v >= 0) ? v : rwc_malloc_next_glibc_slow(f);
}

#endif
