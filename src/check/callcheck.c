/* callcheck.c: the checks of one call, shape by shape (see check.h): the
 * counts and offsets, the arrays the checks must read (proved readable
 * first), then every buffer: its mapping (mapview.h), then its heap block
 * or stack frame (bounds.h); then the call's argument list (capacities,
 * in/out lengths).  The first problem wins. */
#include "config.h"

#include "check/check.h"

#include <limits.h>
#include <sys/socket.h>

#include "base/knobs.h"
#include "bounds/bounds.h"
#include "mapview/mapview.h"
#include "mapview/tcache.h"

__thread struct rwc_fast_said rwc_fast_said __attribute__((tls_model("initial-exec")));

/* What the fast path said of [P, P+N) for NEED in this generation: 1 its
 * map good, 0 not known from the caches, -1 nothing (rwc_fast_said). */
static int fast_said(const void *p, size_t n, unsigned need)
{
	const struct rwc_fast_said *s = &rwc_fast_said;

	if (s->gen && s->a == (uintptr_t)p && s->n == n && s->need == need &&
	    s->gen == __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return s->map;
	return -1;
}

/* fast_said, or 1 where the heap check vouches for the range (a live
 * block's: bounds.h rwc_bounds_vouch). */
static int map_known(const void *p, size_t n, unsigned need)
{
	int k = fast_said(p, n, need);

	return k != 1 && rwc_bounds_vouch((uintptr_t)p, n) ? 1 : k;
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
	if (!(rwc_checks & RWC_CHECK_MAPS)) {
		*skip = 1;
		return RWC_OK;
	}
	return found(f, RWC_IOV_ARRAY_BAD, p, n, what, -1);
}

/* A bounds problem PR of [P, P+N): the bad bytes [LO, HI). */
static enum rwc_problem bounds_found(struct rwc_finding *f, enum rwc_problem pr, const void *p, size_t n,
				     unsigned need, uintptr_t lo, uintptr_t hi, const char *what, long idx)
{
	rwc_verdict_init(&f->v, (uintptr_t)p, n, need);
	f->bounds.compiler_size = 0;
	f->v.problem = pr;
	f->v.bad_lo = lo;
	f->v.bad_hi = hi;
	return found(f, pr, p, n, what, idx);
}

/* An array of COUNT entries, N bytes, that the call hands the kernel
 * (proved mapped: array()) against the object it lies in, as a buffer
 * is: iovcnt 3 for `struct iovec v[2]` runs past v into what follows,
 * and the third "segment" is whatever lies there.  f->count: COUNT. */
static enum rwc_problem array_object(const struct rwc_call *c, const void *p, size_t n, size_t count,
				     unsigned need, struct rwc_finding *f, const char *what)
{
	enum rwc_problem pr;
	uintptr_t lo, hi;

	if (!rwc_bounds_on())
		return RWC_OK;
	pr = rwc_bounds_check((uintptr_t)p, n, (uintptr_t)c->caller_sp, (uintptr_t)c->caller, &f->bounds, &lo, &hi);
	if (pr == RWC_OK) {
		f->bounds.kind = RWC_HOLDER_NONE;
		return RWC_OK;
	}
	bounds_found(f, pr, p, n, need, lo, hi, what, -1);
	f->count = count;
	return pr;
}

/* Memory the call uses as NEED says: its mapping, then the object it lies
 * in (heap block, stack variable or frame, global).  When both are bad,
 * the one whose bad bytes start first is reported: `char ans[2048]` read
 * with 65536 runs past ans long before it runs off the stack; at a tie,
 * the map, but for a freed block (a large one's pages are kept
 * unreadable: bigfree.h). */
static enum rwc_problem memn(const struct rwc_call *c, const void *p, size_t n, unsigned need,
			     struct rwc_finding *f, const char *what, long idx)
{
	enum rwc_problem pr, mp = RWC_OK;
	uintptr_t lo, hi;

	if ((rwc_checks & RWC_CHECK_MAPS) &&
	    (mp = rwc_map_verdict_from((uintptr_t)p, n, need, map_known(p, n, need), &f->v)) != RWC_OK &&
	    f->v.bad_lo <= (uintptr_t)p &&
	    !rwc_bounds_freed_big((uintptr_t)p))
		return found(f, mp, p, n, what, idx);
	pr = rwc_bounds_check((uintptr_t)p, n, (uintptr_t)c->caller_sp, (uintptr_t)c->caller,
			      &f->bounds, &lo, &hi);
	if (mp != RWC_OK &&
	    (pr == RWC_OK || lo > f->v.bad_lo || (lo == f->v.bad_lo && pr != RWC_USE_AFTER_FREE))) {
		f->bounds.kind = RWC_HOLDER_NONE;
		return found(f, mp, p, n, what, idx);
	}
	if (pr == RWC_OK)
		return RWC_OK;
	return bounds_found(f, pr, p, n, need, lo, hi, what, idx);
}

/* A buffer the call transfers into (read-like) or out of (write-like). */
static enum rwc_problem mem(const struct rwc_call *c, const void *p, size_t n, struct rwc_finding *f,
			    const char *what, long idx)
{
	return memn(c, p, n, c->need, f, what, idx);
}

/* A fortified call whose N bytes at P run past the object of OBJSIZE
 * bytes the compiler saw (glibc aborts it): said first, with what holds
 * the buffer. */
static enum rwc_problem compiler_size(const struct rwc_call *c, const void *p, size_t n, unsigned need,
				      size_t objsize, const char *what, struct rwc_finding *f)
{
	enum rwc_problem pr;
	uintptr_t lo, hi;

	pr = rwc_bounds_compiler((uintptr_t)p, n, objsize, (uintptr_t)c->caller_sp, &f->bounds, &lo, &hi);
	if (pr == RWC_OK) { /* where it lies, that check is off */
		f->bounds.kind = RWC_HOLDER_NONE;
		return RWC_OK;
	}
	bounds_found(f, pr, p, n, need, lo, hi, what, -1);
	f->bounds.compiler_size = objsize;
	return pr;
}

/* A buffer of a fortified call (HAS 1: the compiler saw an object of
 * OBJSIZE bytes at P) or not: its memory, then the compiler's size. */
static enum rwc_problem sized(const struct rwc_call *c, const void *p, size_t n, unsigned need, int has,
			      size_t objsize, const char *what, struct rwc_finding *f)
{
	int over = has && n > objsize;

	if (memn(c, p, n, need, f, what, -1)) {
		if (over && rwc_is_bounds_problem(f)) {
			/* the compiler's object may end before what the stack
			 * check found without DWARF (the frame's saved registers) */
			f->bounds.compiler_size = objsize;
			if (f->bounds.kind == RWC_HOLDER_FRAME && (uintptr_t)p + objsize < f->v.bad_lo)
				f->v.bad_lo = (uintptr_t)p + objsize;
		}
		return f->problem;
	}
	return over && rwc_bounds_on() ? compiler_size(c, p, n, need, objsize, what, f) : RWC_OK;
}

/* The buffer of a buffer call. */
static enum rwc_problem buffer(const struct rwc_call *c, struct rwc_finding *f)
{
	return sized(c, c->buf, c->count, c->need, c->has_objsize, c->objsize, "buf", f);
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
		return (rwc_checks & RWC_CHECK_COUNT) ? fail(f, p) : RWC_OK;
	if (iovcnt == 0) /* the kernel fails a negative offset all the same */
		return c->has_offset && (rwc_checks & RWC_CHECK_OFFSET) &&
		       (p = rwc_check_offset(c->offset, 0, c->offset_minus_one_ok)) ? fail(f, p) : RWC_OK;
	if (array(iov, (size_t)iovcnt * sizeof *iov, f, "the iovec array", &skip)) {
		f->count = (size_t)iovcnt;
		return f->problem;
	}
	if (skip)
		return RWC_OK;
	if (array_object(c, iov, (size_t)iovcnt * sizeof *iov, (size_t)iovcnt, RWC_NEED_READ, f, "the iovec array"))
		return f->problem;
	if ((p = rwc_check_iov_total(iov, iovcnt, &f->total)) && (rwc_checks & RWC_CHECK_COUNT))
		return fail(f, p);
	if (c->has_offset && (rwc_checks & RWC_CHECK_OFFSET) &&
	    (p = rwc_check_offset(c->offset, f->total, c->offset_minus_one_ok)))
		return fail(f, p);
	for (long i = 0; i < iovcnt; i++)
		if (iov[i].iov_len && mem(c, iov[i].iov_base, iov[i].iov_len, f, "iov", i))
			return f->problem;
	return RWC_OK;
}

static enum rwc_problem check_msg(const struct rwc_call *c, const struct msghdr *m, struct rwc_finding *f)
{
	size_t iovlen;
	int skip = 0;

	f->buf = m;
	f->count = sizeof *m;
	if (array(m, sizeof *m, f, "the msghdr", &skip))
		return f->problem;
	if (skip)
		return RWC_OK;
	if (array_object(c, m, sizeof *m, sizeof *m, RWC_NEED_READ, f, "the msghdr"))
		return f->problem;
	iovlen = m->msg_iovlen;
	if (check_iov(c, m->msg_iov, iovlen > (size_t)LONG_MAX ? LONG_MAX : (long)iovlen, f))
		return f->problem;
	if (m->msg_name && m->msg_namelen && mem(c, m->msg_name, m->msg_namelen, f, "msg_name", -1))
		return f->problem;
	if (m->msg_control && m->msg_controllen &&
	    mem(c, m->msg_control, m->msg_controllen, f, "msg_control", -1))
		return f->problem;
	return RWC_OK;
}

/* recvmmsg/sendmmsg: the kernel reads every mmsghdr and writes its
 * msg_len back, so the array must be readable, then writable; then each
 * message as for recvmsg/sendmsg.  The kernel clamps vlen to UIO_MAXIOV. */
static enum rwc_problem check_mmsg(const struct rwc_call *c, struct rwc_finding *f)
{
	const struct mmsghdr *v = c->msg;
	size_t vlen = (size_t)(unsigned)c->iovcnt, n;
	int skip = 0;

	if (vlen > IOV_MAX)
		vlen = IOV_MAX;
	if (vlen == 0)
		return RWC_OK;
	n = vlen * sizeof *v;
	f->buf = v;
	f->count = vlen;
	if (array(v, n, f, "the mmsghdr array", &skip) || skip)
		return f->problem;
	if ((rwc_checks & RWC_CHECK_MAPS) && rwc_map_verdict((uintptr_t)v, n, RWC_NEED_WRITE, &f->v) != RWC_OK)
		return found(f, f->v.problem, v, n, "the mmsghdr array", -1);
	if (array_object(c, v, n, vlen, RWC_NEED_READ | RWC_NEED_WRITE, f, "the mmsghdr array"))
		return f->problem;
	for (size_t i = 0; i < vlen; i++) {
		f->msg_index = (long)i;
		if (check_msg(c, &v[i].msg_hdr, f))
			return f->problem;
	}
	f->msg_index = -1;
	return RWC_OK;
}

/* sendfile, splice, copy_file_range: the count, then each offset pointer
 * (read and written back by the kernel) and the offset it holds. */
static enum rwc_problem check_xfer(const struct rwc_call *c, struct rwc_finding *f)
{
	enum rwc_problem p;

	if ((p = rwc_check_count(c->count)) && (rwc_checks & RWC_CHECK_COUNT))
		return fail(f, p);
	for (int k = 0; k < 2; k++) {
		const int64_t *o = c->offp[k];

		struct rwc_verdict v;

		if (!o)
			continue;
		if (memn(c, o, sizeof *o, RWC_NEED_READ | RWC_NEED_WRITE, f, c->offname[k], -1))
			return f->problem;
		/* read only when readable: memn proved it, unless the maps
		 * check is off */
		if (!(rwc_checks & RWC_CHECK_MAPS) &&
		    rwc_map_verdict((uintptr_t)o, sizeof *o, RWC_NEED_READ, &v) != RWC_OK)
			continue;
		if ((rwc_checks & RWC_CHECK_OFFSET) && (p = rwc_check_offset(*o, c->count, 0))) {
			f->offset = *o;
			f->offset_what = c->offname[k];
			return fail(f, p);
		}
	}
	return RWC_OK;
}

/* process_vm_readv/writev: the local iovecs as for readv/writev; the
 * remote array is read by the kernel (its segments are another
 * process's memory). */
static enum rwc_problem check_pvm(const struct rwc_call *c, struct rwc_finding *f)
{
	enum rwc_problem p;
	int skip = 0;

	if (check_iov(c, c->iov, c->iovcnt, f))
		return f->problem;
	f->buf = c->riov;
	f->count = (size_t)c->riovcnt;
	if ((p = rwc_check_iovcnt(c->riovcnt))) {
		f->what = "the remote iovec array";
		return (rwc_checks & RWC_CHECK_COUNT) ? fail(f, p) : RWC_OK;
	}
	if (c->riovcnt && array(c->riov, (size_t)c->riovcnt * sizeof *c->riov, f,
				"the remote iovec array", &skip)) {
		f->count = (size_t)c->riovcnt;
		return f->problem;
	}
	if (c->riovcnt && !skip &&
	    array_object(c, c->riov, (size_t)c->riovcnt * sizeof *c->riov, (size_t)c->riovcnt, RWC_NEED_READ, f,
			 "the remote iovec array"))
		return f->problem;
	return RWC_OK;
}

/* The argument list (common.h): each argument in order; an in/out
 * length is read only once proved readable (its own entry, earlier in the
 * list, checked it when the maps check is on; asked here again when off).
 * f->count is the capacity checked. */
static enum rwc_problem check_args(const struct rwc_call *c, struct rwc_finding *f)
{
	for (unsigned i = 0; i < c->nargs; i++) {
		const struct rwc_arg *a = &c->args[i];
		size_t n = a->n;
		struct rwc_verdict v;

		if (a->kind != RWC_ARG_MEM || !a->p)
			continue;
		if (a->lenp) {
			if (!(rwc_checks & RWC_CHECK_MAPS) &&
			    rwc_map_verdict((uintptr_t)a->lenp, sizeof(socklen_t), RWC_NEED_READ, &v) != RWC_OK)
				continue;
			n = *(const socklen_t *)a->lenp;
		}
		if (n && sized(c, a->p, n, a->need, a->has_obj, a->obj, a->name, f))
			return f->problem;
	}
	return RWC_OK;
}

static enum rwc_problem check_shape(const struct rwc_call *c, struct rwc_finding *f)
{
	enum rwc_problem p;

	switch (c->shape) {
	case RWC_SHAPE_BUF:
		if ((p = rwc_check_count(c->count)) && (rwc_checks & RWC_CHECK_COUNT))
			return fail(f, p);
		if (c->has_offset && (rwc_checks & RWC_CHECK_OFFSET) &&
		    (p = rwc_check_offset(c->offset, c->count, c->offset_minus_one_ok)))
			return fail(f, p);
		return c->count ? buffer(c, f) : RWC_OK;
	case RWC_SHAPE_IOV:
		return check_iov(c, c->iov, c->iovcnt, f);
	case RWC_SHAPE_MSG:
		return check_msg(c, c->msg, f);
	case RWC_SHAPE_MMSG:
		return check_mmsg(c, f);
	case RWC_SHAPE_XFER:
		return check_xfer(c, f);
	case RWC_SHAPE_PVM:
		return check_pvm(c, f);
	case RWC_SHAPE_ARGS:
		break;
	}
	return RWC_OK;
}

enum rwc_problem rwc_check_call(const struct rwc_call *c, struct rwc_finding *f)
{
	enum rwc_problem p;

	rwc_finding_init(f, c->buf, c->count);
	if ((p = check_shape(c, f)) == RWC_OK && c->nargs)
		p = check_args(c, f);
	rwc_fast_said.gen = 0; /* said for this call only */
	return p;
}

