/* fastpath.c: the out-of-line half of the good-call fast path: a buffer
 * the verdict cache (vcache.h) did not hold, judged by the thread's frame
 * cache, its cache of good ranges and the bounds checks' fast path
 * (fastpath.h), and remembered in the verdict cache when good.  Lock-free,
 * no shared writes, no system call; async-signal-safe. */
#include "config.h"

#include "entry/fastpath.h"

#include "bounds/vcache.h"

int rwc_good_buf(uintptr_t a, size_t n, unsigned need, const void *sp, const void *pc)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	const void *p = (const void *)a;

	if (n > (size_t)SSIZE_MAX)
		return 0;
	/* a buffer in a frame this thread walked for this call: a live frame
	 * of its stack, mapped and writable */
	if ((rwc_bounds_on() & RWC_CHECK_STACK) && a >= (uintptr_t)sp && n <= UINTPTR_MAX - a &&
	    rwc_stack_in_frame(a, a + n, (uintptr_t)sp, (uintptr_t)pc))
		return 1;
	if (!rwc_quick_range(p, n, need) || !rwc_bounds_fast(p, n, sp, pc))
		return 0;
	rwc_vc_note(a, n, need, (uintptr_t)sp, g);
	return 1;
}
