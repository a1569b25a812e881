/* dedup.h: each call site (entry point, caller address and problem) is
 * reported once per process; later bad calls from it are counted, and the
 * counts written at exit (RWCHECK_DEDUP=0 reports every call).  Lock-free
 * and signal-safe: a fixed table in the per-process state (perproc.h). */
#ifndef RWC_DEDUP_H
#define RWC_DEDUP_H

#include "base/perproc.h"

/* Counts a bad call to entry point ENTRY (entry_id.h: pread and pread64
 * from one call are two sites).  Returns its site, with *first set when
 * this is the site's first bad call (to be reported); NULL, *first set,
 * when the table is full or the call has no key (perproc.h). */
struct rwc_site *rwc_dedup_hit(uintptr_t pc, unsigned entry, unsigned problem, int *first);

/* Writes one line per site that repeated: "N more" (at exit). */
void rwc_dedup_flush(void);

#endif
