/* checks.c: the pure checks (see checks.h).  Signal-safe, never allocates,
 * touches no memory but its arguments (the iovec array is read only after
 * the caller proved it readable). */
#include "config.h"

#include "base/checks.h"

#include <limits.h>
#include <string.h>

static const char *const problem_names[RWC_PROBLEM_COUNT] = {
	[RWC_OK] = "ok",
	[RWC_BUF_UNMAPPED] = "buf-unmapped",
	[RWC_BUF_NOT_WRITABLE] = "buf-not-writable",
	[RWC_BUF_NOT_READABLE] = "buf-not-readable",
	[RWC_IOV_ARRAY_BAD] = "iov-array-bad",
	[RWC_OFFSET_NEGATIVE] = "offset-negative",
	[RWC_OFFSET_OVERFLOW] = "offset-overflow",
	[RWC_COUNT_TOO_LARGE] = "count-too-large",
	[RWC_IOVCNT_INVALID] = "iovcnt-invalid",
	[RWC_IOV_LEN_OVERFLOW] = "iov-len-overflow",
	[RWC_HEAP_OVERFLOW] = "heap-overflow",
	[RWC_STACK_OVERFLOW] = "stack-overflow",
	[RWC_GLOBAL_OVERFLOW] = "global-overflow",
	[RWC_USE_AFTER_FREE] = "use-after-free",
};

const char *rwc_problem_name(enum rwc_problem p)
{
	if ((unsigned)p >= RWC_PROBLEM_COUNT)
		return "unknown";
	return problem_names[p];
}

static void desc_set(struct rwc_region_desc *d, const struct rwc_region *r,
		     const struct rwc_region_info *info)
{
	d->valid = 1;
	d->start = r->start;
	d->end = r->end;
	d->prot = r->prot;
	d->offset = info ? info->offset : 0;
	d->path[0] = '\0';
	if (info && info->path) {
		size_t n = info->path_len;
		if (n >= sizeof d->path)
			n = sizeof d->path - 1;
		memcpy(d->path, info->path, n);
		d->path[n] = '\0';
	}
}

void rwc_verdict_init(struct rwc_verdict *v, uintptr_t lo, size_t len, unsigned need)
{
	v->lo = lo;
	/* A range that wraps the address space ends at the top; the wrapped
	 * part is unmapped by definition. */
	v->hi = (len > UINTPTR_MAX - lo) ? UINTPTR_MAX : lo + len;
	v->need = need;
	v->cursor = lo;
	v->done = (len == 0);
	v->problem = RWC_OK;
	v->blind = 0;
	v->bad_lo = v->bad_hi = 0;
	v->run_lo = 0;
	v->run_prot = 0;
	v->prev.valid = v->at.valid = v->next.valid = 0;
}

/* Explains [from, to) as PROB; returns 1 when the verdict is final. */
static int piece(struct rwc_verdict *v, enum rwc_problem prob, uintptr_t from, uintptr_t to)
{
	if (v->problem == RWC_OK) {
		if (prob != RWC_OK) {
			v->problem = prob;
			v->bad_lo = from;
			v->bad_hi = to;
		}
	} else if (prob == v->problem && from == v->bad_hi) {
		v->bad_hi = to;
	} else {
		v->done = 1;
		return 1;
	}
	v->cursor = to;
	if (v->cursor >= v->hi)
		v->done = 1;
	return v->done;
}

static enum rwc_problem perm_problem(unsigned prot, unsigned need)
{
	if ((need & RWC_NEED_WRITE) && !(prot & RWC_PROT_W))
		return RWC_BUF_NOT_WRITABLE;
	if ((need & RWC_NEED_READ) && !(prot & RWC_PROT_R))
		return RWC_BUF_NOT_READABLE;
	return RWC_OK;
}

int rwc_verdict_feed(struct rwc_verdict *v, const struct rwc_region *r,
		     const struct rwc_region_info *info)
{
	if (v->done)
		return 1;
	if (r->end <= v->cursor) {
		if (v->problem == RWC_OK)
			desc_set(&v->prev, r, info);
		return 0;
	}
	if (r->start > v->cursor) {
		uintptr_t to = r->start < v->hi ? r->start : v->hi;
		if (v->problem == RWC_OK)
			desc_set(&v->next, r, info);
		if (piece(v, RWC_BUF_UNMAPPED, v->cursor, to))
			return 1;
	}
	{
		enum rwc_problem p = perm_problem(r->prot, v->need);
		uintptr_t to = r->end < v->hi ? r->end : v->hi;
		int was_ok = (v->problem == RWC_OK);
		int first = (v->cursor == v->lo);
		int done = piece(v, p, v->cursor, to);

		if (first) {
			v->run_lo = r->start;
			v->run_prot = r->prot;
		} else {
			v->run_prot &= r->prot;
		}
		if (was_ok && v->problem != RWC_OK)
			desc_set(&v->at, r, info);
		else if (v->problem == RWC_OK)
			desc_set(&v->prev, r, info);
		return done;
	}
}

void rwc_verdict_finish(struct rwc_verdict *v)
{
	if (!v->done && v->cursor < v->hi)
		piece(v, RWC_BUF_UNMAPPED, v->cursor, v->hi);
	v->done = 1;
}

void rwc_verdict_run(struct rwc_verdict *v, const struct rwc_region *r, size_t n, size_t from)
{
	for (size_t i = from; i < n && !v->done; i++)
		rwc_verdict_feed(v, &r[i], NULL);
	rwc_verdict_finish(v);
}

void rwc_verdict_array(struct rwc_verdict *v, const struct rwc_region *r, size_t n)
{
	size_t lo = 0, hi = n;

	/* First region whose end is above v->lo. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].end <= v->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* From the region below it, to describe a gap below. */
	rwc_verdict_run(v, r, n, lo > 0 ? lo - 1 : 0);
}

enum rwc_problem rwc_check_count(size_t count)
{
	return count > (size_t)SSIZE_MAX ? RWC_COUNT_TOO_LARGE : RWC_OK;
}

enum rwc_problem rwc_check_iovcnt(long iovcnt)
{
	return (iovcnt < 0 || iovcnt > IOV_MAX) ? RWC_IOVCNT_INVALID : RWC_OK;
}

enum rwc_problem rwc_check_iov_total(const struct iovec *iov, long iovcnt, size_t *total)
{
	size_t sum = 0;

	for (long i = 0; i < iovcnt; i++) {
		size_t len = iov[i].iov_len;
		if (len > (size_t)SSIZE_MAX - sum) {
			*total = SIZE_MAX;
			return RWC_IOV_LEN_OVERFLOW;
		}
		sum += len;
	}
	*total = sum;
	return RWC_OK;
}

static uintptr_t range_end(uintptr_t lo, size_t n)
{
	return n > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + n;
}

/* B describes the block H: its requested bytes, usable beside them. */
static void block_holds(struct rwc_bounds *b, enum rwc_holder kind, const struct rwc_heap_block *h)
{
	b->kind = kind;
	b->lo = h->start;
	b->hi = b->limit = h->start + (h->size <= h->usable ? h->size : h->usable);
	b->usable = h->usable;
}

enum rwc_problem rwc_heap_verdict(uintptr_t lo, size_t n, const struct rwc_heap_block *live,
				  const struct rwc_heap_block *freed, struct rwc_bounds *b,
				  uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	uintptr_t hi = range_end(lo, n);

	b->kind = RWC_HOLDER_NONE;
	if (n == 0)
		return RWC_OK;
	if (live->usable && lo >= live->start && lo - live->start - live->usable < live->header) {
		block_holds(b, RWC_HOLDER_BLOCK, live); /* starts in the next chunk's header */
		*bad_lo = lo;
		*bad_hi = hi;
		return RWC_HEAP_OVERFLOW;
	}
	if (live->usable && lo >= live->start && lo - live->start < live->usable) {
		block_holds(b, RWC_HOLDER_BLOCK, live);
		if (hi <= b->hi)
			return RWC_OK;
		*bad_lo = lo > b->hi ? lo : b->hi;
		*bad_hi = hi;
		return RWC_HEAP_OVERFLOW;
	}
	if (freed->usable && freed->start > live->start &&
	    (!live->usable || freed->start - live->start >= live->usable) && lo >= freed->start &&
	    lo - freed->start < freed->usable) {
		uintptr_t end;

		block_holds(b, RWC_HOLDER_FREED, freed);
		/* the requested bytes of the range; in the slack, the usable ones */
		end = lo < b->hi ? b->hi : freed->start + freed->usable;
		*bad_lo = lo;
		*bad_hi = hi < end ? hi : end;
		return RWC_USE_AFTER_FREE;
	}
	return RWC_OK;
}

enum rwc_problem rwc_heap_underflow(uintptr_t lo, size_t n, const struct rwc_heap_block *next, struct rwc_bounds *b,
				    uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	uintptr_t hi = range_end(lo, n), word;

	if (n == 0 || !next->usable || next->start <= lo || next->start < sizeof(size_t))
		return RWC_OK;
	word = next->start - sizeof(size_t);
	if (hi <= word)
		return RWC_OK;
	block_holds(b, RWC_HOLDER_BLOCK, next);
	*bad_lo = lo > word ? lo : word;
	*bad_hi = hi;
	return RWC_HEAP_OVERFLOW;
}

enum rwc_problem rwc_stack_verdict(uintptr_t lo, size_t n, const struct rwc_bounds *b,
				   uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	uintptr_t hi = range_end(lo, n);

	if (n == 0 || (b->kind != RWC_HOLDER_FRAME && b->kind != RWC_HOLDER_VARIABLE) || lo < b->lo || lo >= b->hi || hi <= b->limit)
		return RWC_OK;
	*bad_lo = b->limit > lo ? b->limit : lo;
	*bad_hi = hi;
	return RWC_STACK_OVERFLOW;
}
