/* call.c: checks, report and action for one interposed call (see call.h).
 * Fast path: signal-safe, lock-free, no allocation, errno preserved. */
#include "config.h"

#include "entry/call.h"
#include "base/common.h"
#include "check/check.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bounds/bounds.h"
#include "base/context.h"
#include "base/guard.h"
#include "bounds/heapmap.h"
#include "bounds/quarantine.h"
#include "base/knobs.h"
#include "base/log.h"
#include "mapview/mapview.h"
#include "frames/stackwalk.h"
#include "entry/allocrec.h"
#include "entry/mapwatch.h"
#include "base/once.h"
#include "base/real.h"
#include "report/suppfile.h"


static int init_state RWC_START_DATA; /* 0 not yet, 1 in progress, 2 done */
static pid_t init_owner RWC_START_DATA; /* the thread doing it while in progress */

/* The RWCHECK_* entries of the environment (knobs.c), found in one pass;
 * none at all in a secure-execution process (setuid, setgid, file
 * capabilities), like secure_getenv(). */
static const char *knob_env[16] RWC_START_DATA;

static const char *getenv_fn(const char *name)
{
	return rwc_knobs_lookup(knob_env, 16, name);
}

/* Another thread is initializing: 1 once it is done.  The wait is
 * bounded (2 s: that thread may need a lock held by the one a signal
 * handler here interrupted; on a loaded machine a thread can be off its
 * CPU for tens of milliseconds, so the bound is well above that).  0 for
 * a call from inside this thread's own init (a handler), or after the
 * bound; -1 when the initializing thread is not in this process (it was
 * under way in the parent of this fork child). */
static int init_wait(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t o = __atomic_load_n(&init_owner, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) == 2)
			return 1;
		if (o == gettid())
			return 0;
		if (rwc_thread_gone(o))
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 2)
			return 0;
		sched_yield();
	}
}

/* The heap check needs the program's malloc to be this library's, and
 * the next one glibc's own (its chunk headers are read); else it is off,
 * said once. */
static unsigned heap_check_possible(unsigned checks)
{
	const char *who;

	switch (rwc_malloc_order(&who)) {
	case RWC_ALLOC_OURS:
		return checks;
	case RWC_ALLOC_OTHER_NEXT:
		rwc_log_warning("malloc goes on to another allocator, not glibc's own; the heap check is off",
				*who ? who : NULL);
		break;
	case RWC_ALLOC_OTHER_FIRST:
		__atomic_store_n(&rwc_foreign_malloc_first, 1, __ATOMIC_RELEASE);
		rwc_log_warning("the program's malloc is another allocator's, loaded before rwcheck; "
				"the heap check is off", *who ? who : NULL);
		break;
	}
	return checks & ~RWC_CHECK_HEAP;
}

int rwc_init_once(void)
{
	int s = __atomic_load_n(&init_state, __ATOMIC_ACQUIRE), e, w;
	unsigned checks;

	if (RWC_LIKELY(s == 2))
		return 1;
	for (s = 0; !__atomic_compare_exchange_n(&init_state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	     s = 0) {
		if (s == 2)
			return 1;
		e = errno;
		w = init_wait();
		errno = e;
		if (w >= 0)
			return w;
		s = 1; /* forked in the middle of the parent's init: start again */
		__atomic_compare_exchange_n(&init_state, &s, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	}
	__atomic_store_n(&init_owner, gettid(), __ATOMIC_RELEASE);
	rwc_depth++;
	rwc_real_bind_early();
	rwc_knobs_environ(environ, getauxval(AT_SECURE) != 0, knob_env, 16);
	rwc_knobs_load(&rwc_knobs, getenv_fn, rwc_log_knob_warning);
	if (!rwc_knobs.maps_query)
		rwc_map_disable_procmap_query();
	if (rwc_knobs.suppress_set)
		rwc_suppfile_load(rwc_knobs.suppress);
	checks = rwc_knobs.checks;
	rwc_hm_origins = rwc_knobs.heap_origins;
	__atomic_store_n(&rwc_q_limit, (size_t)rwc_knobs.quarantine, __ATOMIC_RELAXED);
	if (checks & RWC_CHECK_HEAP)
		checks = heap_check_possible(checks);
	if (!(checks & RWC_CHECK_HEAP)) { /* blocks no longer recorded nor held */
		__atomic_store_n(&rwc_heap_track, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&rwc_q_limit, 0, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&rwc_checks, checks, __ATOMIC_RELAXED);
	rwc_depth--;
	__atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
	return 1;
}

static int fail_errno(enum rwc_problem p)
{
	switch (p) {
	case RWC_BUF_UNMAPPED:
	case RWC_BUF_NOT_WRITABLE:
	case RWC_BUF_NOT_READABLE:
	case RWC_IOV_ARRAY_BAD:
	case RWC_HEAP_OVERFLOW: /* (a bad buffer too: past its object, or freed) */
	case RWC_STACK_OVERFLOW:
	case RWC_GLOBAL_OVERFLOW:
	case RWC_USE_AFTER_FREE:
		return EFAULT;
	default:
		return EINVAL;
	}
}

int rwc_enter(struct rwc_call *c)
{
	struct rwc_finding f;
	enum rwc_problem p;
	int saved, err = 0;

	if (rwc_depth || !rwc_init_once())
		return 0;
	rwc_depth++;
	saved = errno;
	rwc_map_session_begin();
	rwc_walk_entry_fp = (uintptr_t)c->caller_fp;
	p = rwc_check_call(c, &f);
	rwc_walk_entry_fp = 0;
	rwc_map_session_end();
	if (RWC_UNLIKELY(p != RWC_OK) && rwc_report(c, &f)) {
		if (rwc_knobs.action == RWC_ACTION_ABORT)
			abort();
		if (rwc_knobs.action == RWC_ACTION_EFAULT)
			err = fail_errno(p);
	}
	errno = err ? err : saved;
	rwc_depth--;
	return err ? -1 : 0;
}
