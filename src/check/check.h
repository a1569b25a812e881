/* check.h: the checks of one call (callcheck.c).  Lock-free and
 * async-signal-safe on a good call; never allocates. */
#ifndef RWC_CHECK_H
#define RWC_CHECK_H

#include "base/common.h"
#include "check/finding.h"

/* What the fast path of a call (entry/fastpath.h) learned of the buffer
 * it could not pass, for the checks of the same call to resume from
 * instead of asking again: [a, a+n) for NEED, under the map view's
 * generation GEN (0: nothing said); MAP 1 the thread's cache or the
 * snapshot found its bytes good, 0 neither could tell.  Set by the fast
 * path; taken by the checks only for the same buffer and generation, and
 * cleared by rwc_check_call. */
struct rwc_fast_said {
	uintptr_t a;
	size_t n;
	unsigned need;
	int map;
	uint64_t gen;
};
extern __thread struct rwc_fast_said rwc_fast_said __attribute__((tls_model("initial-exec")));

/* All checks of one call, in a fixed order; the first problem wins.
 * Reads the iovec array / msghdr only after proving them readable. */
enum rwc_problem rwc_check_call(const struct rwc_call *c, struct rwc_finding *f);

#endif
