/* report.c: emitting reports (see report.h): the scratch memory, the gap
 * placeholder, unwinding, symbolizing, suppressions, one write().  Safe
 * mode (signal handlers, vfork children, nested reports, children forked
 * mid-report) loads nothing and allocates nothing. */
#include "config.h"

#include "report/report.h"

#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/context.h"
#include "base/knobs.h"
#include "base/pagesize.h"
#include "base/log.h"
#include "mapview/mapview.h"
#include "mapview/snapshot.h"
#include "base/perproc.h"
#include "base/once.h"
#include "base/ownmem.h"
#include "frames/rawframes.h"
#include "report/dedup.h"
#include "report/format.h"
#include "bounds/depot.h"
#include "bounds/heapmap.h"
#include "report/suppfile.h"
#include "report/suppress.h"
#include "base/real.h"
#include "frames/unwind.h"
#include "frames/ownstack.h"

#define TEXT_CAP 65536

struct scratch {
	uintptr_t pcs[RWC_BACKTRACE_MAX];
	struct rwc_frame frames[RWC_BACKTRACE_MAX];
	uintptr_t origin_pcs[RWC_DEPOT_FRAMES];
	struct rwc_frame origin[RWC_DEPOT_FRAMES];
	struct rwc_frame freed_at[RWC_DEPOT_FRAMES];
	char supp[8192];
	char text[TEXT_CAP];
	char json[2 * TEXT_CAP + 16384];
};

_Static_assert(sizeof(struct scratch) <= RWC_OWN_REPORT_SIZE, "ownmem.h: RWC_OWN_REPORT_SIZE");
/* In the library's own memory (ownmem.h), NULL where it could not be
 * mapped; used under the report lock. */
static inline struct scratch *scratch_mem(void)
{
	return rwc_ownmem_part(RWC_OWN_REPORT);
}
/* While a report loads libraries and allocates, the unmapped bytes it is
 * about must stay unmapped: anything placed there would turn the bad call
 * into a good one that scribbles over the library's memory.  Holds them
 * with a PROT_NONE placeholder (shared, so the kernel never merges it with
 * a neighbour) that verdicts ignore; returns its length, 0 if none. */
static size_t hold_gap(const struct rwc_finding *f, uintptr_t *at)
{
	uintptr_t pg = rwc_page_size(), lo, hi;
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

/* The frames of the site KEY (sites.h: a call site, or a trace of the
 * depot) symbolized into OUT; how many (0: none). */
static int site_frames(struct scratch *s, uintptr_t key, struct rwc_frame *out)
{
	int k = 1;

	if (!key)
		return 0;
	if (key & RWC_HM_TRACE)
		k = rwc_depot_get((uint32_t)(key & ~RWC_HM_TRACE), s->origin_pcs);
	else
		s->origin_pcs[0] = key;
	return k > 0 ? rwc_symbolize(s->origin_pcs, k, out, RWC_DEPOT_FRAMES) : 0;
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

	if (symbolize && (f->bounds.kind == RWC_HOLDER_BLOCK || f->bounds.kind == RWC_HOLDER_FREED)) {
		f->norigin = site_frames(s, f->bounds.origin, s->origin);
		f->origin = f->norigin ? s->origin : NULL;
		f->nfreed_at = site_frames(s, f->bounds.freed_at, s->freed_at);
		f->freed_at = f->nfreed_at ? s->freed_at : NULL;
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
				rwc_knobs.gen_suppressions ? s->supp : NULL, site ? site->id : 0);
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

/* emit()'s arguments and result, to run it on the library's own stack. */
struct emit_args {
	struct scratch *s;
	const struct rwc_call *c;
	const struct rwc_finding *f;
	struct rwc_site *site;
	int symbolize, bad;
};

static void emit_on(void *arg)
{
	struct emit_args *a = arg;

	a->bad = emit(a->s, a->c, a->f, a->symbolize, a->site);
}

/* A report without the lock (a signal handler, a vfork child, while the
 * library maps its memory) gets fresh memory: the scratch and, above it,
 * a stack of its own -- a handler's sigaltstack may have a few KiB left. */
#define SAFE_STACK (32u << 10)
#define SAFE_SIZE (((sizeof(struct scratch) + 4095) & ~(size_t)4095) + SAFE_STACK)

/* One report at a time.  A report made while this thread is already
 * reporting (from a signal handler), or in a vfork child, gets raw frames
 * and no placeholder: it must not wait, load libraries or allocate.  Returns 0 when
 * a suppression matched the call (now or at its site's first report). */
int rwc_report(const struct rwc_call *c, const struct rwc_finding *f)
{
	struct scratch *s;
	uintptr_t held_at = 0;
	size_t held;
	int first = 1, locked = 0, bad = 1, vforked, handler = 1;
	struct rwc_site *site = NULL;

	/* A vfork child shares its parent's state: it reports every call with
	 * raw frames, touching no lock, table or library of the parent.  So
	 * does a report made while another thread maps the library's memory
	 * (ownmem.c: the state moves there, a window of microseconds). */
	vforked = rwc_ownmem_get() == 0 || rwc_in_vfork_child();
	if (!vforked) {
		/* (in a handler, whose stack may have a few KiB left: the caller alone) */
		handler = rwc_maybe_in_handler();
		site = rwc_dedup_hit((uintptr_t)c->caller,
				     rwc_knobs.dedup && !handler ? rwc_dedup_callers((uintptr_t)c->caller_fp,
										(uintptr_t)c->caller_sp,
										(uintptr_t)c->caller)
							  : 0,
				     c->entry, f->problem, &first);
		if (!first)
			return !__atomic_load_n(&site->suppressed, __ATOMIC_ACQUIRE);
		locked = rwc_libs_lock();
	}
	held = locked ? hold_gap(f, &held_at) : 0;
	s = locked ? scratch_mem() : NULL;
	if (!s) {
		s = REAL(mmap)(NULL, SAFE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s == MAP_FAILED) {
			rwc_log_warning("no memory for a report of a bad call to", c->name);
			s = NULL;
		}
	}
	if (s) {
		/* unwinding and symbolizing are deep, and a handler's sigaltstack
		 * may have a few KiB left: on the library's stack (the lock's), or
		 * on the fresh memory's own */
		struct emit_args a = {s, c, f, site, locked && !handler, 1};

		if (locked)
			rwc_on_own_stack(emit_on, &a);
		else
			rwc_run_on_stack(emit_on, &a, (char *)s + SAFE_SIZE);
		bad = a.bad;
	}
	if (s && s != scratch_mem()) {
		REAL(munmap)(s, SAFE_SIZE);
		rwc_map_changed(); /* a snapshot taken meanwhile may hold it */
	}
	if (held)
		REAL(munmap)((void *)held_at, held); /* verdicts never saw it */
	if (locked)
		rwc_libs_unlock();
	return bad;
}
