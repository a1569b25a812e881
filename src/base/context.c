/* context.c: the calling thread's context and the libunwind/libdw lock
 * (see context.h).  Async-signal-safe: rt_sigprocmask, rt_sigaction,
 * gettid, tgkill; no allocation. */
#include "config.h"

#include "base/context.h"
#include "base/common.h"

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/guard.h"
#include "base/once.h"
#include "base/ownmem.h"
#include "base/perproc.h"
#include "base/rawsys.h"
#include "base/real.h"

__thread int rwc_depth __attribute__((tls_model("initial-exec")));
int rwc_foreign_malloc_first RWC_START_DATA;

/* The kernel's struct sigaction (rt_sigaction's, not libc's). */
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/* By system calls through the real syscall() (bound at start), not libc's
 * sigprocmask/sigaction: their first call from a handler would bind them
 * lazily, and the loader's binding saves the vector registers on the
 * stack (~2 KiB with AVX-512) -- on a handler's sigaltstack of 8 KiB, too
 * much.  Blocked signals 1..64 (the kernel's mask word). */
int rwc_maybe_in_handler(void)
{
	uint64_t blocked = 0; /* (written by the raw call) */

	if (rwc_raw_sigmask(&blocked) != 0)
		return 1;
	for (int s = 1; s <= 64; s++) {
		struct ksigaction sa;

		if ((blocked >> (s - 1) & 1) &&
		    REAL(syscall)(SYS_rt_sigaction, s, NULL, &sa, sizeof sa.mask) == 0 &&
		    ((sa.flags & SA_SIGINFO) || (sa.handler != SIG_DFL && sa.handler != SIG_IGN)))
			return 1;
	}
	return 0;
}

/* The thread holding the lock, in memory a fork() child keeps (the lock
 * itself is wiped): a child that finds a thread of its parent there was
 * forked in the middle of a report. */
static pid_t busy_tid RWC_START_DATA;

static int forked_mid_report(void)
{
	pid_t b = __atomic_load_n(&busy_tid, __ATOMIC_ACQUIRE);

	return rwc_thread_gone(b); /* (never this thread: it is one of this process) */
}

int rwc_libs_lock(void)
{
	if (forked_mid_report() || !rwc_lock_take(&rwc_perproc->report))
		return 0;
	__atomic_store_n(&busy_tid, gettid(), __ATOMIC_RELEASE);
	return 1;
}

void rwc_libs_unlock(void)
{
	__atomic_store_n(&busy_tid, 0, __ATOMIC_RELEASE);
	rwc_lock_drop(&rwc_perproc->report);
}

int rwc_load_lock(void)
{
	return rwc_ownmem_get() > 0 && !rwc_in_vfork_child() && !rwc_maybe_in_handler() && rwc_libs_lock();
}

void rwc_load_unlock(void)
{
	rwc_libs_unlock();
}

