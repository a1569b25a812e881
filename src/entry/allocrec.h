/* allocrec.h: the heap map's record of the program's blocks, as the
 * allocator wrappers (malloc.c) and the quarantine (freeq.c) make it, and
 * what it needs to know of the next allocator (is it glibc's? who serves
 * the program's malloc?).  No lock, no allocation; errno kept. */
#ifndef RWC_ALLOCREC_H
#define RWC_ALLOCREC_H

#include <stddef.h>
#include <stdint.h>

#include "base/common.h"
#include "bounds/heapmap.h"
#include "bounds/sites.h"

/* Record blocks at all (0 once the heap check is off: call.c). */
extern int rwc_heap_track;

/* Records the block R that F, the next allocator's function, gave CALLER
 * for REQ bytes (SIZE_MAX: keep what is recorded); nothing for R NULL or
 * while blocks are not recorded. */
void rwc_malloc_record(void *r, size_t req, uintptr_t caller, void *f);

/* The site id (sites.h) of a call from CALLER: its trace with
 * RWCHECK_HEAP_ORIGINS above 1; 0 with sites off. */
uint32_t rwc_malloc_site_traced(uintptr_t caller);
static inline uint32_t rwc_malloc_site(uintptr_t caller)
{
	int o = rwc_hm_origins;

	if (RWC_LIKELY(o == 1))
		return rwc_site_id(caller);
	return o ? rwc_malloc_site_traced(caller) : 0;
}

/* Loads the unwinder for allocation traces (RWCHECK_HEAP_ORIGINS above 1),
 * from the constructor: before it, blocks get their call site only. */
void rwc_malloc_trace_prepare(void);

/* Is F, the next allocator's function, glibc's (its chunk headers
 * readable)?  Asked once, kept: the answer of the first call stands for
 * every later one. */
int rwc_malloc_next_glibc_slow(void *f);
extern int rwc_malloc_glibc_next; /* -1 until asked, then the answer */
static inline int rwc_malloc_next_glibc(void *f)
{
	int v = __atomic_load_n(&rwc_malloc_glibc_next, __ATOMIC_RELAXED);

	return RWC_LIKELY(v >= 0) ? v : rwc_malloc_next_glibc_slow(f);
}

/* Is the next malloc glibc's own?  1, 0, or -1 while not known (malloc
 * not bound yet: this never binds it). */
int rwc_malloc_is_glibc(void);

/* Do the program's malloc calls come here, and go on to glibc's?  WHO:
 * the module of the other allocator ("" when not known). */
enum rwc_alloc_order {
	RWC_ALLOC_OURS,       /* this library's malloc first, then glibc's */
	RWC_ALLOC_OTHER_NEXT, /* this library's first, then another interposer */
	RWC_ALLOC_OTHER_FIRST /* another allocator before this library */
};
enum rwc_alloc_order rwc_malloc_order(const char **who);

#endif
