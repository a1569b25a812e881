/* call.h: the logic between an exported entry point and the real
 * function: checks, report, action.  The fast path (a good call) is
 * async-signal-safe, lock-free, never allocates and leaves errno as it was. */
#ifndef RWC_CALL_H
#define RWC_CALL_H

#include "base/common.h"
#include "report/report.h"

/* Runs the checks for C.  Returns 0 to make the real call, or -1 when the
 * action is efault and the call must fail (errno is then set). */
int rwc_enter(struct rwc_call *c);

/* Makes sure the knobs are read and the real functions bound; 0 while that
 * is not (yet) possible, in which case calls pass through unchecked. */
int rwc_init_once(void);

#endif
