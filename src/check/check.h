/* check.h: the checks of one call (callcheck.c).  Lock-free and
 * async-signal-safe on a good call; never allocates. */
#ifndef RWC_CHECK_H
#define RWC_CHECK_H

#include "base/common.h"
#include "check/finding.h"

/* All checks of one call, in a fixed order; the first problem wins.
 * Reads the iovec array / msghdr only after proving them readable. */
enum rwc_problem rwc_check_call(const struct rwc_call *c, struct rwc_finding *f);

#endif
