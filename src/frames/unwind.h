/* unwind.h: backtraces for reports.  libunwind is dlopen()ed (RTLD_LOCAL)
 * on the first report, never at start: it exports _Unwind_* and backtrace,
 * which must not take over the program's own.  Report path only. */
#ifndef RWC_UNWIND_H
#define RWC_UNWIND_H

#include <stdint.h>

#include "base/checks.h"

/* Fills PCS with up to MAX return addresses, the first being CALLER (the
 * return address into the program that called the interposed function);
 * frames of the library itself are skipped.  Without libunwind, just
 * CALLER.  Only with MAY_LOAD (under the report lock, not in a signal
 * handler) is libunwind used at all; otherwise the result is CALLER alone.
 * Returns the count. */
int rwc_backtrace(uintptr_t *pcs, int max, uintptr_t caller, int may_load);

#define RWC_STACK_CHAIN 4

/* What the walk up the stack found about an address. */
struct rwc_stack_walk {
	struct rwc_bounds b; /* the frame holding it (kind RWC_HOLDER_FRAME) */
	uintptr_t top;       /* the outermost frame's sp, when the walk got there; or 0 */
	int nchain;          /* return-address slots of the frames below b, or -1 */
	uintptr_t slot[RWC_STACK_CHAIN], val[RWC_STACK_CHAIN];
};

/* Walks the frames from the one whose sp is SP0 (the caller of the
 * interposed function) up to the frame holding A: 1 found (W->b), 0 in no
 * frame, -1 unknown (no libunwind, or the walk failed).  With TO_TOP the
 * walk goes on to the outermost frame, whose sp it leaves in W->top (0 if
 * it did not get there).  Loads libunwind; under the report lock only
 * (see report.c). */
int rwc_stack_walk(uintptr_t a, uintptr_t sp0, int to_top, struct rwc_stack_walk *w);

/* Loads libunwind and lets it make its first-use mappings now (the stack
 * check, from the constructor): later they could land in a hole the
 * program unmapped, and a bad call into the hole would read as good. */
void rwc_unwind_prepare(void);

#endif
