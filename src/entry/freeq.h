/* freeq.h: free and realloc through the quarantine (bounds/quarantine.h).
 * Only blocks the heap map has live are held (glibc's, recorded by
 * malloc.c's wrappers), only while glibc serves and the heap check
 * records blocks, and none larger than a quarter of the limit; what
 * comes out of the quarantine goes to the real free, the view told what
 * that unmaps.  A block glibc mmapped that is too large to hold is
 * reserved instead (bounds/bigfree.h): its pages PROT_NONE, its range
 * kept from reuse.  No lock, no allocation; errno kept. */
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

/* After realloc(P) from CALLER gave back the mmapped block P, whose
 * mapping was [LO, HI) (moved, or freed by realloc(P, 0)): its range is
 * reserved again when nothing took it meanwhile (bigfree.h). */
void rwc_freeq_moved(void *p, uintptr_t lo, uintptr_t hi, uintptr_t caller);

#endif
