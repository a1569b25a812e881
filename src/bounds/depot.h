/* depot.h: allocation backtraces, stored once each (RWCHECK_HEAP_ORIGINS
 * above 1).  A trace is a few return addresses; the depot keeps each
 * distinct trace once in a table mapped on first use and hands out a
 * small id for the heap map to keep per block.  Lock-free: a slot is
 * claimed with a compare-and-swap and published when written; a full
 * table (or a slot being written) gives id 0: no trace. */
#ifndef RWC_DEPOT_H
#define RWC_DEPOT_H

#include <stdint.h>

#define RWC_DEPOT_FRAMES 16

/* The id of the trace PCS[0..n), 0 if it cannot be kept. */
uint32_t rwc_depot_put(const uintptr_t *pcs, int n);
/* Copies the trace ID into PCS (at most RWC_DEPOT_FRAMES); its length,
 * 0 for an unknown id. */
int rwc_depot_get(uint32_t id, uintptr_t *pcs);

#endif
