/* report.c: emitting reports (see report.h): the report lock and scratch
 * memory, the gap placeholder, unwinding, symbolizing, suppressions, one
 * write().  Safe mode (signal handlers, vfork children, nested reports,
 * children forked mid-report) loads nothing and allocates nothing. */
#include "config.h"

#include "report.h"

#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "knobs.h"
#include "log.h"
#include "mapview.h"
#include "perproc.h"
#include "once.h"
#include "ownmem.h"
#include "rawframes.h"
#include "dedup.h"
#include "depot.h"
#include "heapmap.h"
#include "suppfile.h"
#include "suppress.h"
#include "real.h"
#include "unwind.h"

#define TEXT_CAP 65536

struct scratch {
	uintptr_t pcs[RWC_BACKTRACE_MAX];
	struct rwc_frame frames[RWC_BACKTRACE_MAX];
	uintptr_t origin_pcs[RWC_DEPOT_FRAMES];
	struct rwc_frame origin[RWC_DEPOT_FRAMES];
	char supp[8192];
	char text[TEXT_CAP];
	char json[2 * TEXT_CAP + 16384];
};

static struct scratch *scratch; /* in the library's own memory (ownmem.h); used under the report lock */
/* The thread holding the report lock, in memory a fork() child keeps (the
 * lock itself is wiped): a child that finds a thread of its parent there
 * was forked in the middle of a report, with libunwind's and libdw's state
 * possibly half-changed, and reports in safe mode from then on. */
static pid_t busy_tid;

static int forked_mid_report(void)
{
	pid_t b = __atomic_load_n(&busy_tid, __ATOMIC_ACQUIRE);

	return rwc_thread_gone(b); /* (never this thread: it is one of this process) */
}

/* The report lock, unless this is a child forked mid-report (whose lock
 * holder never comes back) or its own thread holds it (a handler). */
static int lock_report(void)
{
	if (forked_mid_report() || !rwc_lock_take(&rwc_perproc->report))
		return 0;
	__atomic_store_n(&busy_tid, gettid(), __ATOMIC_RELEASE);
	return 1;
}

static void unlock_report(void)
{
	__atomic_store_n(&busy_tid, 0, __ATOMIC_RELEASE);
	rwc_lock_drop(&rwc_perproc->report);
}

int rwc_unwind_lock(void)
{
	return rwc_ownmem_get() != 0 && !rwc_in_vfork_child() && !rwc_maybe_in_handler() && lock_report();
}

void rwc_unwind_unlock(void)
{
	unlock_report();
}

size_t rwc_report_mem_size(void)
{
	return sizeof *scratch;
}

void rwc_report_init(void *mem)
{
	scratch = mem;
}

/* While a report loads libraries and allocates, the unmapped bytes it is
 * about must stay unmapped: anything placed there would turn the bad call
 * into a good one that scribbles over the library's memory.  Holds them
 * with a PROT_NONE placeholder (shared, so the kernel never merges it with
 * a neighbour) that verdicts ignore; returns its length, 0 if none. */
static size_t hold_gap(const struct rwc_finding *f, uintptr_t *at)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;
	void *p;

	if (!rwc_is_memory_problem(f) || f->v.problem != RWC_BUF_UNMAPPED)
		return 0;
	lo = f->v.bad_lo & ~(pg - 1);
	hi = f->v.bad_hi > UINTPTR_MAX - pg ? UINTPTR_MAX & ~(pg - 1) : (f->v.bad_hi + pg - 1) & ~(pg - 1);
	if (hi <= lo)
		return 0;
	rwc_map_hide(lo, hi);
	p = REAL(mmap)((void *)lo, hi - lo, PROT_NONE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || (uintptr_t)p != lo) { /* taken, or no MAP_FIXED_NOREPLACE */
		if (p != MAP_FAILED)
			REAL(munmap)(p, hi - lo);
		return 0;
	}
	*at = lo;
	return hi - lo;
}

/* Unwinds, symbolizes, weighs the suppressions, formats, writes.  In
 * safe mode (SYMBOLIZE 0: a signal handler, a vfork child, a nested
 * report) it loads nothing and allocates nothing: raw frames with their
 * modules, and no suppressions (fnmatch may allocate). */
static int emit(struct scratch *s, const struct rwc_call *c, const struct rwc_finding *found,
		int symbolize, struct rwc_site *site)
{
	const char *problem = rwc_problem_name(found->problem);
	struct rwc_finding fc = *found, *f = &fc;
	struct rwc_fmt o, j;
	int n = rwc_backtrace(s->pcs, rwc_knobs.backtrace, (uintptr_t)c->caller, symbolize);

	if (symbolize && f->bounds.kind == RWC_HOLDER_BLOCK && f->bounds.origin) {
		uintptr_t at = f->bounds.origin;
		int k = 1;

		if (at & RWC_HM_TRACE)
			k = rwc_depot_get((uint32_t)(at & ~RWC_HM_TRACE), s->origin_pcs);
		else
			s->origin_pcs[0] = at;
		f->norigin = k > 0 ? rwc_symbolize(s->origin_pcs, k, s->origin, RWC_DEPOT_FRAMES) : 0;
		f->origin = f->norigin ? s->origin : NULL;
	}
	if (symbolize) {
		n = rwc_symbolize(s->pcs, n, s->frames, rwc_knobs.backtrace);
	} else {
		for (int i = 0; i < n; i++) {
			memset(&s->frames[i], 0, sizeof s->frames[i]);
			s->frames[i].pc = s->pcs[i];
		}
		rwc_raw_modules(s->frames, n);
	}
	if (symbolize && rwc_suppfile_match(problem, s->frames, n)) {
		if (site)
			__atomic_store_n(&site->suppressed, 1, __ATOMIC_RELEASE);
		return 0;
	}
	if (rwc_knobs.gen_suppressions)
		rwc_supp_generate(s->supp, sizeof s->supp, problem, s->frames, n);
	rwc_fmt_init(&o, s->text, sizeof s->text);
	rwc_format_text(&o, getpid(), c, f, s->frames, n);
	if (o.truncated)
		s->text[o.len - 1] = '\n';
	if (rwc_knobs.format == RWC_FORMAT_JSON) {
		rwc_fmt_init(&j, s->json, sizeof s->json);
		rwc_format_json(&j, getpid(), c, f, s->frames, n, s->text,
				rwc_knobs.gen_suppressions ? s->supp : NULL);
		if (j.truncated)
			s->json[j.len - 1] = '\n';
		rwc_log_write(s->json, j.len);
	} else {
		if (rwc_knobs.gen_suppressions)
			rwc_fmt_str(&o, s->supp);
		rwc_log_write(s->text, o.len);
	}
	return 1;
}

/* One report at a time.  A report made while this thread is already
 * reporting (from a signal handler), or in a vfork child, gets raw frames
 * and no placeholder: it must not wait, load libraries or allocate.  Returns 0 when
 * a suppression matched the call (now or at its site's first report). */
int rwc_report(const struct rwc_call *c, const struct rwc_finding *f)
{
	struct scratch *s;
	uintptr_t held_at = 0;
	size_t held;
	int first = 1, locked = 0, bad = 1, vforked;
	struct rwc_site *site = NULL;

	/* A vfork child shares its parent's state: it reports every call with
	 * raw frames, touching no lock, table or library of the parent.  So
	 * does a report made while another thread maps the library's memory
	 * (ownmem.c: the state moves there, a window of microseconds). */
	vforked = rwc_ownmem_get() == 0 || rwc_in_vfork_child();
	if (!vforked) {
		site = rwc_dedup_hit((uintptr_t)c->caller, c->entry, f->problem, &first);
		if (!first)
			return !__atomic_load_n(&site->suppressed, __ATOMIC_ACQUIRE);
		locked = lock_report();
	}
	held = locked ? hold_gap(f, &held_at) : 0;
	s = locked ? scratch : NULL;
	if (!s) {
		s = REAL(mmap)(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s == MAP_FAILED) {
			rwc_log_warning("no memory for a report of a bad call to", c->name);
			s = NULL;
		}
	}
	if (s)
		bad = emit(s, c, f, locked && !rwc_maybe_in_handler(), site);
	if (s && s != scratch) {
		REAL(munmap)(s, sizeof *s);
		rwc_map_changed(); /* a snapshot taken meanwhile may hold it */
	}
	if (held)
		REAL(munmap)((void *)held_at, held); /* verdicts never saw it */
	if (locked)
		unlock_report();
	return bad;
}
