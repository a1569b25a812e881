/* init.c: the library's constructor, kept to what must happen at start:
 * bind what a signal handler's first checked call may need (real.c),
 * remember this process (ownmem.c: vfork children tell themselves from
 * it), and the knobs that must act before main.  The library's own memory
 * is mapped at its first need (ownmem.h), the knobs are read and the rest
 * bound by the first checked call (call.c), also for calls that arrive
 * before this constructor.  Every microsecond here is paid by every
 * process started under rwcheck (make startab measures it): each first
 * call of a libc function is a symbol lookup, each new page touched a
 * fault. */
#include "config.h"

#include <sys/auxv.h>
#include <unistd.h>

#include "bounds/bounds.h"
#include "report/dedup.h"
#include "base/guard.h"
#include "bounds/heapmap.h"
#include "bounds/quarantine.h"
#include "base/knobs.h"
#include "base/log.h"
#include "entry/exec.h"
#include "entry/execnote.h"
#include "entry/allocrec.h"
#include "entry/call.h"
#include "entry/mapwatch.h"
#include "base/ownmem.h"
#include "base/real.h"

/* At exit: how often each reported call site repeated (dedup.c). */
__attribute__((destructor)) static void rwc_fini(void)
{
	rwc_dedup_flush();
	rwc_log_dropped_note();
}

/* The knobs that must act before main: allocation sites and the
 * quarantine (blocks are allocated and freed before the first checked
 * call), RWCHECK_TRACE_CHILDREN (the environment main sees), and whether to load libgcc's
 * unwinder now for allocation traces (RWCHECK_HEAP_ORIGINS above 1; the
 * stack check loads nothing: stackwalk.h).  (The knobs are parsed again, with
 * warnings, by the first checked call; nothing is read in a
 * secure-execution process.) */
static int early_knobs(void)
{
	const char *env[16], *c, *h, *q, *t;
	unsigned checks = RWC_CHECKS_DEFAULT;
	unsigned long frames = 1, bytes = RWC_QUARANTINE_DEFAULT;

	/* (No libc call unless one of these knobs is set.) */
	rwc_knobs_environ(environ, 0, env, 16);
	c = rwc_knobs_lookup(env, 16, "RWCHECK_CHECKS");
	h = rwc_knobs_lookup(env, 16, "RWCHECK_HEAP_ORIGINS");
	q = rwc_knobs_lookup(env, 16, "RWCHECK_QUARANTINE");
	t = rwc_knobs_lookup(env, 16, "RWCHECK_TRACE_CHILDREN");
	if ((!c && !h && !q && !t) || getauxval(AT_SECURE))
		return 0;
	if (t) /* (before main copies its environment) */
		rwc_exec_start(t);
	if (c && rwc_parse_checks(c, RWC_CHECKS_DEFAULT, &checks) != 0)
		checks = RWC_CHECKS_DEFAULT;
	if (h && rwc_parse_uint(h, 16, &frames) != 0)
		frames = 1;
	if (q && rwc_parse_uint(q, RWC_QUARANTINE_MAX, &bytes) != 0)
		bytes = RWC_QUARANTINE_DEFAULT;
	if (!(checks & RWC_CHECK_HEAP))
		frames = bytes = 0;
	if (frames != 1)
		rwc_hm_origins = (int)frames; /* (not written when 1: a page fault less) */
	if (bytes != RWC_QUARANTINE_DEFAULT)
		rwc_q_limit = bytes;
	return frames > 1;
}

__attribute__((constructor)) static void rwc_init(void)
{
	int want;

	rwc_start_environ = environ; /* (execnote.c) */
	rwc_real_bind_early();
	rwc_ownmem_start();
	rwc_log_start();
	want = early_knobs();
	/* Allocation traces walk the stack through the map view, which the
	 * walk makes now: a view made before the first checked call would
	 * answer that call's fast path with the checks not yet read (the
	 * bounds checks off until a call misses it).  So the knobs are read
	 * and the checks set first. */
	if (want) {
		rwc_init_once();
		rwc_depth++; /* the unwinder's own calls */
		rwc_malloc_trace_prepare();
		rwc_depth--;
	}
	/* the quarantine's ring: a larger one than the default's (in .bss)
	 * mapped before the program can unmap holes */
	if (__atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED))
		rwc_q_prepare();
}

/* ASan reads this before ASAN_OPTIONS: a program built with
 * -fsanitize=address (its runtime a shared library) accepts this library
 * preloaded before its runtime, also when the program or a script sets
 * its own ASAN_OPTIONS (which replaces what the wrapper put there).  The
 * runtime's own definition is weak; a program's own, in the executable,
 * comes first in the lookup and still wins. */
const char *__asan_default_options(void);
RWC_EXPORT const char *__asan_default_options(void)
{
	return "verify_asan_link_order=0";
}
