/* ownheap.h: the library's own heap.  While a thread is inside the
 * library (rwc_depth: a report loading libunwind/libdw and symbolizing,
 * a check, the init), its allocations — the loader's for those libraries
 * included — come from here, never from the program's allocator: a report
 * then never hands anyone memory the program freed (a read into a freed
 * block would write over it) and leaves the program's heap as it was.
 * Blocks keep a glibc-like size word before them; they are freed through
 * free() and resized through realloc() by anyone (malloc.c routes them
 * here).  Never on a good call's path. */
#ifndef RWC_OWNHEAP_H
#define RWC_OWNHEAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/common.h"

/* N bytes aligned to ALIGN (a power of two; at least 16); NULL when no
 * memory can be had or the lock is this thread's own (a handler). */
void *rwc_ownheap_alloc(size_t n, size_t align);
void rwc_ownheap_free(void *p);
size_t rwc_ownheap_usable(const void *p);

/* Bounds of every mapping the heap ever had (only ever widened). */
extern uintptr_t rwc_ownheap_lo, rwc_ownheap_hi;
int rwc_ownheap_has_slow(const void *p);

/* Is P a block of this heap?  Two compares for most pointers. */
static inline int rwc_ownheap_has(const void *p)
{
	return RWC_UNLIKELY((uintptr_t)p >= __atomic_load_n(&rwc_ownheap_lo, __ATOMIC_RELAXED) &&
			    (uintptr_t)p < __atomic_load_n(&rwc_ownheap_hi, __ATOMIC_RELAXED)) &&
	       rwc_ownheap_has_slow(p);
}

#endif
