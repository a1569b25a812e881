/* bounds.c: the heap and stack checks (see bounds.h): finds what holds a
 * buffer (heapmap.h, stackwalk.h) and asks the pure verdicts (checks.h).
 * Allocates nothing, takes no lock: async-signal-safe. */
#include "config.h"

#include "bounds/bounds.h"

#include "mapview/tcache.h"
#include "bounds/chunk.h"
#include "bounds/heapmap.h"
#include "mapview/mapview.h"
#include "frames/stackwalk.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

static uintptr_t range_end(uintptr_t p, size_t n)
{
	return n > UINTPTR_MAX - p ? UINTPTR_MAX : p + n;
}

/* ---- heap: glibc's chunk header (size | flags) sits just below a block;
 * read only when the view knows it readable, never the user's bytes. */

/* chunk_usable()'s answer when the fast path cannot tell. */
#define UNKNOWN SIZE_MAX

/* heap()'s answer in the fast path when a header it needs is UNKNOWN: not
 * a verdict; the full check decides. */
#define HEAP_UNSURE (-1)

/* The usable bytes of the block at P from its chunk header: 0 for no
 * readable header.  The fast path (FULL 0) asks the cached view only: the
 * thread's cache, then the snapshot, which may be unable to tell (stale:
 * another thread changed the map since this call's buffer was found
 * mapped; being written); then the answer is UNKNOWN, never 0, since a
 * header the view cannot vouch for is no sign that no block is there.
 * The full check (FULL 1) asks the view brought up to date. */
static size_t chunk_usable(uintptr_t p, int full)
{
	uintptr_t h = p - RWC_CHUNK_HDR;
	struct rwc_verdict v;
	int says; /* the header is readable: 1 yes, 0 no, -1 cannot tell */

	if (p < RWC_CHUNK_HDR)
		return 0;
	says = rwc_fast_range((const void *)h, RWC_CHUNK_HDR, RWC_NEED_READ);
	if (!says)
		says = rwc_snap_lookup(h, RWC_CHUNK_HDR, RWC_NEED_READ);
	if (says <= 0 && full)
		says = rwc_map_verdict(h, RWC_CHUNK_HDR, RWC_NEED_READ, &v) == RWC_OK;
	if (says < 0)
		return UNKNOWN;
	return says ? rwc_chunk_usable(rwc_chunk_word(p)) : 0;
}

/* RWC_OK or RWC_HEAP_OVERFLOW (what holds the buffer in B, the bad bytes
 * [*BLO, *BHI)); in the fast path (FULL 0) also HEAP_UNSURE. */
static int heap(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *blo, uintptr_t *bhi, int full)
{
	uintptr_t live, freed = 0;
	size_t ls = 0, fs = 0;

	b->kind = RWC_HOLDER_NONE;
	if (rwc_hm_nothing_below(p))
		return RWC_OK;
	live = rwc_hm_prev(p, 0, 0);
	if (live && (ls = chunk_usable(live, full)) == UNKNOWN)
		return HEAP_UNSURE;
	if (!ls || p - live >= ls) {
		freed = rwc_hm_prev(p, 1, live);
		if (freed > live && (fs = chunk_usable(freed, full)) == UNKNOWN)
			return HEAP_UNSURE;
	}
	if (rwc_heap_verdict(p, n, live, ls, freed, fs, b, blo, bhi) == RWC_OK)
		return RWC_OK;
	if (b->kind == RWC_HOLDER_BLOCK)
		b->origin = rwc_hm_origin(live);
	return RWC_HEAP_OVERFLOW;
}

/* ---- stack: this thread's stack (the run of mappings around its sp), the
 * sp of its outermost frame, and the frames recently found to hold a
 * buffer wholly, keyed by the call site and its sp and checked against the
 * return addresses saved in the frames between. */

TLS struct rwc_fent rwc_fcache[RWC_NFENT];
TLS uintptr_t rwc_stk_top;
static TLS unsigned fnext;
static TLS int filling; /* remember() is writing an entry */

/* 1: nothing to check or a cached frame holds the range; 0: walk. */
static int stack_known(uintptr_t p, uintptr_t hi, uintptr_t sp0, uintptr_t pc)
{
	return !sp0 || p < sp0 || rwc_stack_cached(p, hi, sp0, pc);
}

/* Caches B, held in W's frame, for the call at PC with sp SP0.  A signal handler that
 * interrupts a fill leaves the cache alone (filling), so no entry mixes
 * two fills; one that looks sees the entry invalid (pc 0). */
static void remember(uintptr_t pc, uintptr_t sp0, const struct rwc_bounds *b, const struct rwc_stack_walk *w)
{
	struct rwc_fent *e;

	if (filling)
		return;
	filling = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e = &rwc_fcache[fnext++ % RWC_NFENT];
	e->pc = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->sp = sp0;
	e->lo = b->lo;
	e->limit = b->limit;
	e->nchain = w->nchain;
	for (int i = 0; i < w->nchain; i++)
		e->slot[i] = w->slot[i], e->val[i] = w->val[i];
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->pc = pc;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	filling = 0;
}

/* The frame holding the buffer is known here: B (kind RWC_HOLDER_FRAME)
 * has lo = its sp, hi = its CFA, limit = its first save slot at or above
 * the buffer (or its CFA), pc and index (0: the caller of the I/O call).
 * A narrower holder found here (B changed) is what a good verdict caches:
 * [B->lo, B->limit). */
static enum rwc_problem in_frame(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *blo, uintptr_t *bhi)
{
	return rwc_stack_verdict(p, n, b, blo, bhi);
}

static enum rwc_problem stack(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc,
			      struct rwc_bounds *b, uintptr_t *blo, uintptr_t *bhi)
{
	struct rwc_stack_walk w;
	enum rwc_problem pr;
	int r, full;

	b->kind = RWC_HOLDER_NONE;
	if (!sp0 || p < sp0)
		return RWC_OK;
	full = !rwc_stk_top || sp0 >= rwc_stk_top; /* learn where this stack's frames end */
	if (!full && p >= rwc_stk_top)
		return RWC_OK;
	/* Frame #0 first: most buffers are the caller's own; the rest of the
	 * stack is walked only for a buffer above it, or to learn the top. */
	r = rwc_frames_walk(p, sp0, pc, full, &w);
	if (full && w.top > sp0)
		rwc_stk_top = w.top;
	if (r != 1)
		return RWC_OK; /* in no frame, or no verdict */
	*b = w.b;
	pr = in_frame(p, n, b, blo, bhi);
	if (pr == RWC_OK && w.nchain >= 0)
		remember(pc, sp0, b, &w);
	return pr;
}

int rwc_bounds_good(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc)
{
	unsigned on = rwc_bounds_on();
	struct rwc_bounds b;
	uintptr_t lo, hi;

	if ((on & RWC_CHECK_HEAP) && heap(p, n, &b, &lo, &hi, 0) != RWC_OK)
		return 0;
	return !(on & RWC_CHECK_STACK) || stack_known(p, range_end(p, n), sp0, pc);
}

enum rwc_problem rwc_bounds_check(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc,
				  struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	unsigned on = rwc_bounds_on();

	b->kind = RWC_HOLDER_NONE;
	if (n == 0)
		return RWC_OK;
	if ((on & RWC_CHECK_HEAP) && heap(p, n, b, bad_lo, bad_hi, 1) != RWC_OK)
		return RWC_HEAP_OVERFLOW;
	if ((on & RWC_CHECK_STACK) && !stack_known(p, range_end(p, n), sp0, pc))
		return stack(p, n, sp0, pc, b, bad_lo, bad_hi);
	return RWC_OK;
}
