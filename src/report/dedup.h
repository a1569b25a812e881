/* dedup.h: each call site (entry point, caller address and problem) is
 * reported once per process; later bad calls from it are counted, and the
 * counts written at exit (RWCHECK_DEDUP=0 reports every call).  Lock-free
 * and signal-safe: a fixed table in the per-process state (perproc.h). */
#ifndef RWC_DEDUP_H
#define RWC_DEDUP_H

#include "base/perproc.h"

/* Counts a bad call to entry point ENTRY (entry_id.h: pread and pread64
 * from one call are two sites) returning to PC, whose frame's callers
 * hash to CALLERS (rwc_dedup_callers).  Returns its site, with *first set
 * when this is the site's first bad call (to be reported); NULL, *first
 * set, when the table is full or the call has no key (perproc.h). */
struct rwc_site *rwc_dedup_hit(uintptr_t pc, uint64_t callers, unsigned entry, unsigned problem, int *first);

/* The hash of the return addresses of the frames that called the
 * caller's (its sp SP0 and return address PC; FP: the entry's frame
 * address, rwc_call's caller_fp), up to RWCHECK_BACKTRACE frames in all
 * and at most RWC_DEDUP_FRAMES (the frames a report shows, by which the
 * wrapper groups reports); 0 where the stack cannot be walked: then the
 * caller alone is the site (report.c asks for none in a signal handler,
 * whose stack may be small).  A walk by the frames' CFI (stackwalk.h): no
 * lock, no allocation. */
#define RWC_DEDUP_FRAMES 16
uint64_t rwc_dedup_callers(uintptr_t fp, uintptr_t sp0, uintptr_t pc);

/* Writes one line per site that repeated: "N more" (at exit). */
void rwc_dedup_flush(void);

#endif
