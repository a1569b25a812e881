/* once.h: run a loader once, and a lock for the report path.
 *
 * rwc_once runs a loader once (dlopen of libunwind, libdw).  Callers in
 * other threads wait for the loader to finish; a nested caller in the
 * loading thread itself (a signal handler that interrupted the load) gets
 * "not available" instead of deadlocking.  Report path only. */
#ifndef RWC_ONCE_H
#define RWC_ONCE_H

#include <sched.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/real.h"

/* 1 when TID (0: none) is not a thread of this process: it belonged to
 * the parent of this fork() child, which holds only the forking thread.
 * (The real syscall(): a plain call would reach the library's own.) */
static inline int rwc_thread_gone(pid_t tid)
{
	return tid != 0 && REAL(syscall)(SYS_tgkill, getpid(), tid, 0) != 0;
}

struct rwc_once {
	int state; /* 0 untried, 1 loaded, 2 loading, -1 unavailable */
	pid_t owner;
};

static inline int rwc_once(struct rwc_once *o, int (*load)(void))
{
	int s = 0;

	if (__atomic_compare_exchange_n(&o->state, &s, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&o->owner, gettid(), __ATOMIC_RELEASE);
		s = load() ? 1 : -1;
		__atomic_store_n(&o->state, s, __ATOMIC_RELEASE);
		return s == 1;
	}
	while (s == 2) {
		pid_t owner = __atomic_load_n(&o->owner, __ATOMIC_ACQUIRE);

		if (owner == gettid())
			return 0;
		/* A loader that is not a thread of this process: the load was
		 * under way in the parent when it forked.  Never wait for it. */
		if (rwc_thread_gone(owner))
			return 0;
		sched_yield();
		s = __atomic_load_n(&o->state, __ATOMIC_ACQUIRE);
	}
	return s == 1;
}

/* A lock for the report path: other threads wait their turn; the holding
 * thread re-entering (from a signal handler) is refused instead. */
struct rwc_lock {
	int held;
	pid_t owner;
};

static inline int rwc_lock_take(struct rwc_lock *l)
{
	pid_t me = gettid();

	for (;;) {
		int z = 0;

		if (__atomic_compare_exchange_n(&l->held, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			__atomic_store_n(&l->owner, me, __ATOMIC_RELEASE);
			return 1;
		}
		if (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) == me)
			return 0;
		sched_yield();
	}
}

static inline void rwc_lock_drop(struct rwc_lock *l)
{
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

#endif
