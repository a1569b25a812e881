/* rowcache.h: the CFI rows of recently walked pcs (cfi.h), kept so that a
 * walk over frames it has seen before reads no .eh_frame: the allocation
 * traces (RWCHECK_HEAP_ORIGINS above 1) walk the same few call chains
 * millions of times.  One table for the process, direct-mapped by pc, each
 * entry under its own sequence count: lock-free, nothing allocated,
 * async-signal-safe (a reader that meets an entry being written, or a
 * writer that meets one, simply misses).  A row is a pure function of the
 * module's code at the pc: an entry goes stale only if a module is
 * unloaded and another one mapped at the same address (the walk still
 * reads only slots the map view vouches for). */
#ifndef RWC_ROWCACHE_H
#define RWC_ROWCACHE_H

#include <stdint.h>

#include "frames/cfi.h"

/* The registers a frame walk follows: those a call preserves, and the
 * return address (the sp is the CFA). */
#define RWC_ROW_FOLLOWED 7
#define RWC_ROW_FOLLOWED_REGS {RWC_CFI_RBX, RWC_CFI_RBP, 12, 13, 14, 15, RWC_CFI_RA}

/* The row of PC: 1 found (ROW's CFA and the followed registers' rules
 * filled; the others' left as they were), 0 not in the table. */
int rwc_rowcache_get(uintptr_t pc, struct rwc_cfi_row *row);

/* Keeps ROW's CFA and followed registers as PC's (not a signal frame's,
 * and only where it fits the table's compact form; else nothing). */
void rwc_rowcache_put(uintptr_t pc, const struct rwc_cfi_row *row);

#endif
