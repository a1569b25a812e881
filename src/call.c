/* call.c: checks, report and action for one interposed call (see call.h).
 * Fast path: signal-safe, lock-free, no allocation, errno preserved. */
#include "config.h"

#include "call.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bounds.h"
#include "guard.h"
#include "heapmap.h"
#include "knobs.h"
#include "log.h"
#include "mapview.h"
#include "mapwatch.h"
#include "real.h"
#include "suppfile.h"

__thread int rwc_depth __attribute__((tls_model("initial-exec")));

static int init_state; /* 0 not yet, 1 in progress, 2 done */
static unsigned checks; /* RWC_CHECK_* in force */

/* The RWCHECK_* entries of the environment (knobs.c), found in one pass;
 * none at all in a secure-execution process (setuid, setgid, file
 * capabilities), like secure_getenv(). */
static const char *knob_env[16];

static const char *getenv_fn(const char *name)
{
	return rwc_knobs_lookup(knob_env, 16, name);
}

int rwc_init_once(void)
{
	int s = __atomic_load_n(&init_state, __ATOMIC_ACQUIRE);

	if (RWC_LIKELY(s == 2))
		return 1;
	s = 0;
	if (!__atomic_compare_exchange_n(&init_state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 0; /* another thread, or a call from inside our own init */
	rwc_depth++;
	rwc_real_bind_early();
	rwc_knobs_environ(environ, getauxval(AT_SECURE) != 0, knob_env, 16);
	rwc_knobs_load(&rwc_knobs, getenv_fn, rwc_log_knob_warning);
	if (!rwc_knobs.maps_query)
		rwc_map_disable_procmap_query();
	if (rwc_knobs.suppress[0])
		rwc_suppfile_load(rwc_knobs.suppress);
	checks = rwc_knobs.checks;
	rwc_hm_origins = rwc_knobs.heap_origins;
	if ((checks & RWC_CHECK_HEAP) && !rwc_malloc_ours()) {
		rwc_log_warning("malloc is not glibc's (another allocator is loaded); "
				"the heap check is off", NULL);
		checks &= ~RWC_CHECK_HEAP;
	}
	if (!(checks & RWC_CHECK_HEAP))
		rwc_bounds_heap_off();
	__atomic_store_n(&rwc_bounds_on, checks & (RWC_CHECK_HEAP | RWC_CHECK_STACK), __ATOMIC_RELAXED);
	rwc_depth--;
	__atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
	return 1;
}

static enum rwc_problem found(struct rwc_finding *f, enum rwc_problem pr, const void *p, size_t n,
			      const char *what, long idx)
{
	f->problem = pr;
	f->what = what;
	f->iov_index = idx;
	f->buf = p;
	f->count = n;
	return pr;
}

/* An array the checks must read (the iovec array, the msghdr): always
 * proved readable first, reported only with the maps check on; *SKIP
 * set when it is bad but that check is off. */
static enum rwc_problem array(const void *p, size_t n, struct rwc_finding *f, const char *what,
			      int *skip)
{
	if (rwc_map_verdict((uintptr_t)p, n, RWC_NEED_READ, &f->v) == RWC_OK)
		return RWC_OK;
	if (!(checks & RWC_CHECK_MAPS)) {
		*skip = 1;
		return RWC_OK;
	}
	return found(f, RWC_IOV_ARRAY_BAD, p, n, what, -1);
}

/* A buffer the call transfers: its mapping, then its heap block or stack
 * frame. */
static enum rwc_problem mem(const struct rwc_call *c, const void *p, size_t n, struct rwc_finding *f,
			    const char *what, long idx)
{
	enum rwc_problem pr;
	uintptr_t lo, hi;

	if ((checks & RWC_CHECK_MAPS) &&
	    (pr = rwc_map_verdict((uintptr_t)p, n, c->need, &f->v)) != RWC_OK)
		return found(f, pr, p, n, what, idx);
	pr = rwc_bounds_check((uintptr_t)p, n, (uintptr_t)c->caller_sp, (uintptr_t)c->caller,
			      &f->bounds, &lo, &hi);
	if (pr == RWC_OK)
		return RWC_OK;
	rwc_verdict_init(&f->v, (uintptr_t)p, n, c->need);
	f->v.problem = pr;
	f->v.bad_lo = lo;
	f->v.bad_hi = hi;
	return found(f, pr, p, n, what, idx);
}

static enum rwc_problem fail(struct rwc_finding *f, enum rwc_problem p)
{
	f->problem = p;
	return p;
}

/* iovcnt, the array, the total, the offset, then every segment. */
static enum rwc_problem check_iov(const struct rwc_call *c, const struct iovec *iov,
				  long iovcnt, struct rwc_finding *f)
{
	enum rwc_problem p;
	int skip = 0;

	f->buf = iov;
	f->count = (size_t)iovcnt;
	if ((p = rwc_check_iovcnt(iovcnt)))
		return (checks & RWC_CHECK_COUNT) ? fail(f, p) : RWC_OK;
	if (iovcnt == 0)
		return RWC_OK;
	if (array(iov, (size_t)iovcnt * sizeof *iov, f, "the iovec array", &skip)) {
		f->count = (size_t)iovcnt;
		return f->problem;
	}
	if (skip)
		return RWC_OK;
	if ((p = rwc_check_iov_total(iov, iovcnt, &f->total)) && (checks & RWC_CHECK_COUNT))
		return fail(f, p);
	if (c->has_offset && (checks & RWC_CHECK_OFFSET) &&
	    (p = rwc_check_offset(c->offset, f->total, c->offset_minus_one_ok)))
		return fail(f, p);
	for (long i = 0; i < iovcnt; i++)
		if (iov[i].iov_len && mem(c, iov[i].iov_base, iov[i].iov_len, f, "iov", i))
			return f->problem;
	return RWC_OK;
}

static enum rwc_problem check_msg(const struct rwc_call *c, struct rwc_finding *f)
{
	const struct msghdr *m = c->msg;
	size_t iovlen;
	int skip = 0;

	f->buf = m;
	f->count = sizeof *m;
	if (array(m, sizeof *m, f, "the msghdr", &skip))
		return f->problem;
	if (skip)
		return RWC_OK;
	iovlen = m->msg_iovlen;
	if (check_iov(c, m->msg_iov, iovlen > (size_t)IOV_MAX ? -1 : (long)iovlen, f))
		return f->problem;
	if (m->msg_name && m->msg_namelen && mem(c, m->msg_name, m->msg_namelen, f, "msg_name", -1))
		return f->problem;
	if (m->msg_control && m->msg_controllen &&
	    mem(c, m->msg_control, m->msg_controllen, f, "msg_control", -1))
		return f->problem;
	return RWC_OK;
}

enum rwc_problem rwc_check_call(const struct rwc_call *c, struct rwc_finding *f)
{
	enum rwc_problem p;

	f->problem = RWC_OK;
	f->what = "buf";
	f->iov_index = -1;
	f->buf = c->buf;
	f->count = c->count;
	f->total = 0;
	f->v.problem = RWC_OK;
	f->bounds.kind = RWC_HOLDER_NONE;
	f->origin = NULL;
	switch (c->shape) {
	case RWC_SHAPE_BUF:
		if ((p = rwc_check_count(c->count)) && (checks & RWC_CHECK_COUNT))
			return fail(f, p);
		if (c->has_offset && (checks & RWC_CHECK_OFFSET) &&
		    (p = rwc_check_offset(c->offset, c->count, c->offset_minus_one_ok)))
			return fail(f, p);
		if (c->count)
			return mem(c, c->buf, c->count, f, "buf", -1);
		return RWC_OK;
	case RWC_SHAPE_IOV:
		return check_iov(c, c->iov, c->iovcnt, f);
	case RWC_SHAPE_MSG:
		return check_msg(c, f);
	}
	return RWC_OK;
}

static int fail_errno(enum rwc_problem p)
{
	switch (p) {
	case RWC_BUF_UNMAPPED:
	case RWC_BUF_NOT_WRITABLE:
	case RWC_BUF_NOT_READABLE:
	case RWC_IOV_ARRAY_BAD:
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
	p = rwc_check_call(c, &f);
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
