/* init.c: the library's constructor, kept to what must happen at start:
 * map the library's memory in one go (before the program can make holes
 * for it to land in), with the per-process state (perproc.h) in wipe-on-fork
 * pages, and bind write() before any signal handler can call
 * it.  The memory is mapped here, not kept in .bss (which would save this
 * mmap, ~0.6% of a process start): .bss is needed whole for the library
 * to load at all, so under a tight address-space limit (ulimit -v) its
 * 22 MB would keep the program from starting, where a failed mmap here
 * only leaves the library without its cached view.  The knobs are read
 * and the rest bound by the first checked call (call.c), also for calls
 * that arrive before this constructor.  Every microsecond here is paid by
 * every process started under rwcheck (make startab measures it). */
#include "config.h"

#include <pthread.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bounds.h"
#include "dedup.h"
#include "guard.h"
#include "heapmap.h"
#include "knobs.h"
#include "mapwatch.h"
#include "perproc.h"
#include "real.h"
#include "report.h"
#include "snapshot.h"
#include "unwind.h"

static struct rwc_perproc fallback;
struct rwc_perproc *rwc_perproc = &fallback;

int rwc_in_vfork_child(void)
{
	pid_t me = getpid(), o = __atomic_load_n(&rwc_perproc->owner, __ATOMIC_ACQUIRE);

	if (o == 0 && __atomic_compare_exchange_n(&rwc_perproc->owner, &o, me, 0, __ATOMIC_ACQ_REL,
						  __ATOMIC_ACQUIRE))
		return 0;
	return o != me;
}

static void atfork_child(void)
{
	__builtin_memset(rwc_perproc, 0, sizeof *rwc_perproc);
}

/* At exit: how often each reported call site repeated (dedup.c). */
__attribute__((destructor)) static void rwc_fini(void)
{
	rwc_dedup_flush();
}

/* The knobs that must act before main: allocation origins (blocks are
 * allocated before the first checked call), and which unwinders to load
 * now: 1 libunwind (the stack check), 2 libgcc's for allocation traces
 * (RWCHECK_HEAP_ORIGINS above 1).  (The knobs are parsed again, with
 * warnings, by the first checked call; nothing is read in a
 * secure-execution process.) */
static int early_knobs(void)
{
	const char *env[16], *v;
	unsigned checks = RWC_CHECKS_DEFAULT;
	unsigned long frames = 0;

	rwc_knobs_environ(environ, getauxval(AT_SECURE) != 0, env, 16);
	v = rwc_knobs_lookup(env, 16, "RWCHECK_CHECKS");
	if (v && rwc_parse_checks(v, RWC_CHECKS_DEFAULT, &checks) != 0)
		checks = RWC_CHECKS_DEFAULT;
	v = rwc_knobs_lookup(env, 16, "RWCHECK_HEAP_ORIGINS");
	if (v && rwc_parse_uint(v, 16, &frames) != 0)
		frames = 0;
	if ((checks & RWC_CHECK_HEAP) && frames)
		rwc_hm_origins = (int)frames; /* (not written when 0: a page fault less) */
	return ((checks & RWC_CHECK_STACK) ? 1 : 0) | ((checks & RWC_CHECK_HEAP) && frames > 1 ? 2 : 0);
}

__attribute__((constructor)) static void rwc_init(void)
{
	size_t pg = getauxval(AT_PAGESZ), snap = rwc_snap_mem_size(); /* (sysconf: 2 more page faults) */
	size_t wipe = (sizeof(struct rwc_perproc) + pg - 1) & ~(pg - 1);
	size_t total = wipe + snap + rwc_report_mem_size();
	int want;
	char *p = REAL(mmap)(NULL, total, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	rwc_real_bind_early();
	if (p == MAP_FAILED) {
		fallback.owner = getpid();
		pthread_atfork(NULL, NULL, atfork_child);
		return; /* no cached view: every check asks the kernel */
	}
	if (madvise(p, wipe, MADV_WIPEONFORK) == 0)
		rwc_perproc = (struct rwc_perproc *)p;
	else
		pthread_atfork(NULL, NULL, atfork_child); /* kernel before 4.14 */
	rwc_perproc->owner = getpid();
	rwc_snap_init(p + wipe);
	rwc_report_init(p + wipe + snap);
	want = early_knobs();
	rwc_depth++; /* the unwinders' own calls (libunwind probes memory with write) */
	if (want & 1)
		rwc_unwind_prepare();
	if (want & 2)
		rwc_malloc_trace_prepare();
	rwc_depth--;
}
