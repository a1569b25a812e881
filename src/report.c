/* report.c: formatting and emitting reports (see report.h).  The report
 * path maps its scratch memory with mmap (never malloc) and writes the
 * whole report with one write(). */
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
#include "rawframes.h"
#include "dedup.h"
#include "suppfile.h"
#include "suppress.h"
#include "real.h"
#include "unwind.h"

static int is_memory_problem(const struct rwc_finding *f)
{
	return f->v.problem != RWC_OK &&
	       (f->problem == RWC_BUF_UNMAPPED || f->problem == RWC_BUF_NOT_WRITABLE ||
		f->problem == RWC_BUF_NOT_READABLE || f->problem == RWC_IOV_ARRAY_BAD);
}

/* "buf", "iov[2]", "the iovec array", ... */
static void what(struct rwc_fmt *o, const struct rwc_finding *f)
{
	rwc_fmt_str(o, f->what);
	if (f->iov_index >= 0) {
		rwc_fmt_char(o, '[');
		rwc_fmt_i64(o, f->iov_index);
		rwc_fmt_char(o, ']');
	}
}

static void message(struct rwc_fmt *o, const struct rwc_call *c, const struct rwc_finding *f)
{
	if (is_memory_problem(f)) {
		uint64_t a = f->v.bad_lo - f->v.lo, b = f->v.bad_hi - f->v.lo - 1;
		int one = (a == b);

		rwc_fmt_str(o, one ? "byte " : "bytes ");
		rwc_fmt_u64(o, a);
		if (!one) {
			rwc_fmt_str(o, "..");
			rwc_fmt_u64(o, b);
		}
		rwc_fmt_str(o, " of ");
		what(o, f);
		rwc_fmt_str(o, one ? " is " : " are ");
		rwc_fmt_str(o, f->v.problem == RWC_BUF_UNMAPPED ? "not mapped"
			       : f->v.problem == RWC_BUF_NOT_WRITABLE ? "not writable"
								      : "not readable");
		return;
	}
	switch (f->problem) {
	case RWC_OFFSET_NEGATIVE:
		rwc_fmt_str(o, "offset ");
		rwc_fmt_i64(o, c->offset);
		rwc_fmt_str(o, " is negative");
		break;
	case RWC_OFFSET_OVERFLOW:
		rwc_fmt_str(o, "offset ");
		rwc_fmt_i64(o, c->offset);
		rwc_fmt_str(o, " + count ");
		rwc_fmt_u64(o, c->shape == RWC_SHAPE_BUF ? c->count : f->total);
		rwc_fmt_str(o, " overflows a 64-bit file offset");
		break;
	case RWC_COUNT_TOO_LARGE:
		rwc_fmt_str(o, "count ");
		rwc_fmt_u64(o, c->count);
		rwc_fmt_str(o, " exceeds SSIZE_MAX");
		break;
	case RWC_IOVCNT_INVALID:
		rwc_fmt_str(o, "iovcnt ");
		rwc_fmt_i64(o, c->iovcnt);
		rwc_fmt_str(o, " is outside 0..");
		rwc_fmt_u64(o, IOV_MAX);
		break;
	case RWC_IOV_LEN_OVERFLOW:
		rwc_fmt_str(o, "the iovec lengths add up past SSIZE_MAX");
		break;
	default:
		rwc_fmt_str(o, rwc_problem_name(f->problem));
		break;
	}
}

static void perms(struct rwc_fmt *o, unsigned p)
{
	char s[5] = {(p & RWC_PROT_R) ? 'r' : '-', (p & RWC_PROT_W) ? 'w' : '-',
		     (p & RWC_PROT_X) ? 'x' : '-', (p & RWC_PROT_SHARED) ? 's' : 'p', 0};
	rwc_fmt_str(o, s);
}

static void region_text(struct rwc_fmt *o, const struct rwc_region_desc *d)
{
	rwc_fmt_hex(o, d->start);
	rwc_fmt_char(o, '-');
	rwc_fmt_hex(o, d->end);
	rwc_fmt_char(o, ' ');
	perms(o, d->prot);
	if (d->path[0]) {
		rwc_fmt_char(o, ' ');
		rwc_fmt_str(o, d->path);
	}
}

static void call_text(struct rwc_fmt *o, const struct rwc_call *c)
{
	rwc_fmt_str(o, c->name);
	rwc_fmt_char(o, '(');
	if (c->sysname) {
		rwc_fmt_str(o, "SYS_");
		rwc_fmt_str(o, c->sysname);
		rwc_fmt_str(o, ", ");
	}
	rwc_fmt_str(o, "fd=");
	rwc_fmt_i64(o, c->fd);
	if (c->shape == RWC_SHAPE_BUF) {
		rwc_fmt_str(o, ", buf=");
		rwc_fmt_hex(o, (uintptr_t)c->buf);
		rwc_fmt_str(o, ", count=");
		rwc_fmt_u64(o, c->count);
	} else if (c->shape == RWC_SHAPE_IOV) {
		rwc_fmt_str(o, ", iov=");
		rwc_fmt_hex(o, (uintptr_t)c->iov);
		rwc_fmt_str(o, ", iovcnt=");
		rwc_fmt_i64(o, c->iovcnt);
	} else {
		rwc_fmt_str(o, ", msg=");
		rwc_fmt_hex(o, (uintptr_t)c->msg);
	}
	if (c->has_offset) {
		rwc_fmt_str(o, ", offset=");
		rwc_fmt_i64(o, c->offset);
	}
	rwc_fmt_char(o, ')');
}

static void prefix(struct rwc_fmt *o, long pid)
{
	rwc_fmt_str(o, "rwcheck[");
	rwc_fmt_i64(o, pid);
	rwc_fmt_str(o, "]: ");
}

void rwc_format_text(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr)
{
	prefix(o, pid);
	call_text(o, c);
	rwc_fmt_str(o, ": ");
	message(o, c, f);
	rwc_fmt_str(o, " [");
	rwc_fmt_str(o, rwc_problem_name(f->problem));
	rwc_fmt_str(o, "]\n");
	if (is_memory_problem(f)) {
		const struct rwc_verdict *v = &f->v;

		prefix(o, pid);
		rwc_fmt_str(o, "  ");
		what(o, f);
		rwc_fmt_char(o, '+');
		rwc_fmt_u64(o, v->bad_lo - v->lo);
		if (v->problem != RWC_BUF_UNMAPPED && v->at.valid) {
			rwc_fmt_str(o, " is inside ");
			region_text(o, &v->at);
		} else if (v->prev.valid) {
			rwc_fmt_str(o, " is ");
			rwc_fmt_u64(o, v->bad_lo - v->prev.end);
			rwc_fmt_str(o, " bytes past the end of ");
			region_text(o, &v->prev);
		} else if (v->next.valid) {
			rwc_fmt_str(o, " is ");
			rwc_fmt_u64(o, v->next.start - v->bad_lo);
			rwc_fmt_str(o, " bytes before the start of ");
			region_text(o, &v->next);
		} else {
			rwc_fmt_str(o, " is not in any mapping");
		}
		rwc_fmt_char(o, '\n');
	}
	for (int i = 0; i < nfr; i++) {
		prefix(o, pid);
		rwc_fmt_str(o, "    #");
		rwc_fmt_i64(o, i);
		rwc_fmt_char(o, ' ');
		rwc_fmt_hex(o, fr[i].pc);
		rwc_fmt_str(o, " in ");
		rwc_fmt_str(o, fr[i].function[0] ? fr[i].function : "??");
		if (fr[i].file[0]) {
			rwc_fmt_char(o, ' ');
			rwc_fmt_str(o, fr[i].file);
			rwc_fmt_char(o, ':');
			rwc_fmt_i64(o, fr[i].line);
		} else if (fr[i].module[0]) {
			rwc_fmt_str(o, " (");
			rwc_fmt_str(o, fr[i].module);
			rwc_fmt_char(o, '+');
			rwc_fmt_hex(o, fr[i].module_off);
			rwc_fmt_char(o, ')');
		}
		rwc_fmt_char(o, '\n');
	}
}

static void json_hex(struct rwc_fmt *o, int *first, const char *k, uint64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_char(o, '"');
	rwc_fmt_hex(o, v);
	rwc_fmt_char(o, '"');
}

static void json_int(struct rwc_fmt *o, int *first, const char *k, int64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_i64(o, v);
}

static void json_uint(struct rwc_fmt *o, int *first, const char *k, uint64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_u64(o, v);
}

static void json_str(struct rwc_fmt *o, int *first, const char *k, const char *v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_json_str(o, v);
}

static void json_mapping(struct rwc_fmt *o, const struct rwc_region_desc *d, const char *kind)
{
	char p[5];
	struct rwc_fmt pf;
	int first = 1;

	rwc_fmt_init(&pf, p, sizeof p);
	perms(&pf, d->prot);
	rwc_fmt_char(o, '{');
	if (kind)
		json_str(o, &first, "kind", kind);
	json_hex(o, &first, "start", d->start);
	json_hex(o, &first, "end", d->end);
	json_str(o, &first, "perms", p);
	json_hex(o, &first, "offset", d->offset);
	json_str(o, &first, "path", d->path);
	rwc_fmt_char(o, '}');
}

static void json_region(struct rwc_fmt *o, const struct rwc_verdict *v)
{
	int first = 1;

	if (v->problem != RWC_BUF_UNMAPPED && v->at.valid) {
		json_mapping(o, &v->at, "mapping");
		return;
	}
	rwc_fmt_char(o, '{');
	json_str(o, &first, "kind", "gap");
	json_hex(o, &first, "start", v->prev.valid ? v->prev.end : 0);
	if (v->next.valid)
		json_hex(o, &first, "end", v->next.start);
	if (v->prev.valid) {
		rwc_fmt_json_key(o, &first, "below");
		json_mapping(o, &v->prev, NULL);
	}
	if (v->next.valid) {
		rwc_fmt_json_key(o, &first, "above");
		json_mapping(o, &v->next, NULL);
	}
	rwc_fmt_char(o, '}');
}

static void json_frames(struct rwc_fmt *o, const struct rwc_frame *fr, int nfr)
{
	rwc_fmt_char(o, '[');
	for (int i = 0; i < nfr; i++) {
		int first = 1;

		if (i)
			rwc_fmt_char(o, ',');
		rwc_fmt_char(o, '{');
		json_hex(o, &first, "pc", fr[i].pc);
		json_str(o, &first, "module", fr[i].module);
		if (fr[i].function[0])
			json_str(o, &first, "function", fr[i].function);
		if (fr[i].file[0]) {
			json_str(o, &first, "file", fr[i].file);
			json_int(o, &first, "line", fr[i].line);
		}
		rwc_fmt_char(o, '}');
	}
	rwc_fmt_char(o, ']');
}

void rwc_format_json(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr,
		     const char *text, const char *supp)
{
	static const char *const actions[] = {"report", "efault", "abort"};
	char msg[512];
	struct rwc_fmt m;
	int first = 1;

	rwc_fmt_init(&m, msg, sizeof msg);
	message(&m, c, f);
	rwc_fmt_char(o, '{');
	json_str(o, &first, "call", c->name);
	if (c->sysname)
		json_str(o, &first, "syscall", c->sysname);
	json_str(o, &first, "problem", rwc_problem_name(f->problem));
	json_int(o, &first, "pid", pid);
	json_int(o, &first, "fd", c->fd);
	json_hex(o, &first, "buf", (uintptr_t)f->buf);
	json_uint(o, &first, "count", f->count);
	if (c->has_offset)
		json_int(o, &first, "offset", c->offset);
	if (f->iov_index >= 0)
		json_int(o, &first, "iov_index", f->iov_index);
	if (c->shape != RWC_SHAPE_BUF)
		json_str(o, &first, "what", f->what);
	json_str(o, &first, "message", msg);
	if (is_memory_problem(f)) {
		int bf = 1;

		rwc_fmt_json_key(o, &first, "bad");
		rwc_fmt_char(o, '{');
		json_uint(o, &bf, "first", f->v.bad_lo - f->v.lo);
		json_uint(o, &bf, "last", f->v.bad_hi - f->v.lo - 1);
		json_hex(o, &bf, "start", f->v.bad_lo);
		json_hex(o, &bf, "end", f->v.bad_hi);
		rwc_fmt_char(o, '}');
		rwc_fmt_json_key(o, &first, "region");
		json_region(o, &f->v);
	}
	json_str(o, &first, "action", actions[rwc_knobs.action]);
	json_hex(o, &first, "caller", (uintptr_t)c->caller);
	rwc_fmt_json_key(o, &first, "frames");
	json_frames(o, fr, nfr);
	if (text)
		json_str(o, &first, "text", text);
	if (supp)
		json_str(o, &first, "suppression", supp);
	rwc_fmt_str(o, "}\n");
}

#define TEXT_CAP 65536

struct scratch {
	uintptr_t pcs[RWC_BACKTRACE_MAX];
	struct rwc_frame frames[RWC_BACKTRACE_MAX];
	char supp[8192];
	char text[TEXT_CAP];
	char json[2 * TEXT_CAP + 16384];
};

static struct scratch *scratch; /* mapped at start; used under the report lock */
/* The thread holding the report lock, in memory a fork() child keeps (the
 * lock itself is wiped): a child that finds a thread of its parent there
 * was forked in the middle of a report, with libunwind's and libdw's state
 * possibly half-changed, and reports in safe mode from then on. */
static pid_t busy_tid;

static int forked_mid_report(void)
{
	pid_t b = __atomic_load_n(&busy_tid, __ATOMIC_ACQUIRE);

	return b != 0 && b != gettid() && syscall(SYS_tgkill, getpid(), b, 0) != 0;
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

	if (!is_memory_problem(f) || f->v.problem != RWC_BUF_UNMAPPED)
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
static int emit(struct scratch *s, const struct rwc_call *c, const struct rwc_finding *f,
		int symbolize, struct rwc_site *site)
{
	const char *problem = rwc_problem_name(f->problem);
	struct rwc_fmt o, j;
	int n = rwc_backtrace(s->pcs, rwc_knobs.backtrace, (uintptr_t)c->caller, symbolize);

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
	int first = 1, locked = 0, bad = 1, vforked = rwc_in_vfork_child();
	struct rwc_site *site = NULL;

	/* A vfork child shares its parent's state: it reports every call with
	 * raw frames, touching no lock, table or library of the parent. */
	if (!vforked) {
		site = rwc_dedup_hit((uintptr_t)c->caller, f->problem, c->name, &first);
		if (!first)
			return !__atomic_load_n(&site->suppressed, __ATOMIC_ACQUIRE);
		locked = !forked_mid_report() && rwc_lock_take(&rwc_perproc->report);
		if (locked)
			__atomic_store_n(&busy_tid, gettid(), __ATOMIC_RELEASE);
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
	if (locked) {
		__atomic_store_n(&busy_tid, 0, __ATOMIC_RELEASE);
		rwc_lock_drop(&rwc_perproc->report);
	}
	return bad;
}
