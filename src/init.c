/* init.c: the library's constructor, kept to what must happen at start:
 * put the per-process state (perproc.h) in wipe-on-fork pages and bind
 * write() before any signal handler can call it.  The library's memory
 * (the map view's snapshots, the report's scratch, the heap map's top
 * table) is in .bss, mapped by the loader with the library before the
 * program can make a hole for it to land in.  The knobs are read and the
 * rest bound by the first checked call (call.c), also for calls that
 * arrive before this constructor.  Every microsecond here is paid by
 * every process started under rwcheck (bench/: process start). */
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
#include "unwind.h"

/* The per-process state needs pages of its own, so that madvise() wipes
 * it and nothing else.  An aligned object would align all of .bss and
 * move its start off the data page the loader touches anyway (more page
 * faults in every process), so the constructor aligns it inside this
 * area instead; until then (calls before the constructor) it sits at the
 * area's start.  With pages over 4 KiB it stays there and the
 * pthread_atfork() handler does the wiping. */
#define WIPE_PAGE 4096
#define WIPE_LEN ((sizeof(struct rwc_perproc) + WIPE_PAGE - 1) / WIPE_PAGE * WIPE_PAGE)
static union {
	struct rwc_perproc pp;
	char bytes[WIPE_LEN + WIPE_PAGE];
} wipe;
struct rwc_perproc *rwc_perproc = &wipe.pp;

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
	unsigned long pg = getauxval(AT_PAGESZ); /* (sysconf() would fault in two more pages) */
	int want;
	uintptr_t at = ((uintptr_t)&wipe + WIPE_PAGE - 1) & ~(uintptr_t)(WIPE_PAGE - 1);

	rwc_real_bind_early();
	if (pg == WIPE_PAGE && madvise((void *)at, WIPE_LEN, MADV_WIPEONFORK) == 0)
		rwc_perproc = (struct rwc_perproc *)at; /* (no lock is held before main) */
	else
		pthread_atfork(NULL, NULL, atfork_child); /* kernel before 4.14 */
	rwc_perproc->owner = getpid();
	want = early_knobs();
	rwc_depth++; /* the unwinders' own calls (libunwind probes memory with write) */
	if (want & 1)
		rwc_unwind_prepare();
	if (want & 2)
		rwc_malloc_trace_prepare();
	rwc_depth--;
}
