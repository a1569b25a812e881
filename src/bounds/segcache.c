/* segcache.c: the heap check of a vector call's segments, each in a
 * small block near its start, and the filling of the segment cache
 * (segcache.h) with the good ones.  Reads the library's own tables and
 * chunk headers on pages the caller found mapped; no lock, no
 * allocation, no system call: async-signal-safe. */
#include "config.h"

#include "bounds/segcache.h"

__thread struct rwc_vs_set rwc_vs __attribute__((tls_model("initial-exec")));

int rwc_vs_all(const struct iovec *iov, long iovcnt, unsigned need, uintptr_t sp, size_t *total)
{
	const struct rwc_vs_set *t = &rwc_vs;
	const struct rwc_vs *e0 = t->e;
	const struct iovec *end = iov + iovcnt;
	unsigned seq = t->seq;
	size_t sum = 0;

	if ((seq & 1) || t->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	for (; iov < end; iov++) {
		uintptr_t a = (uintptr_t)iov->iov_base;
		size_t n = iov->iov_len, g = a >> 4;
		const struct rwc_vs *e = &e0[g & (RWC_VS_N - 1)];

		if (!n)
			continue;
		if (e->lo != a || n > e->span || (need & e->nok) || (a >= sp && !rwc_stack_above(a, sp)))
			return 0;
		if (!((__atomic_load_n(e->livew, __ATOMIC_ACQUIRE) >> (g % 64)) & 1) ||
		    __atomic_load_n(e->slackp, __ATOMIC_RELAXED) != e->slack ||
		    (rwc_chunk_word(a) & ~(size_t)1) != e->word)
			return 0;
		sum += n; /* no overflow: each at most a block's 2^46 bytes, IOV_MAX of them */
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (t->seq != seq)
		return 0;
	*total = sum;
	return 1;
}

/* [a, a+n) (n > 0) in the requested bytes of the live block starting in
 * a's bitmap word of the leaf LF (fastbounds.h rwc_heap_in's verdict, in
 * fewer steps), its header at or above FLOOR (the pages from FLOOR up to
 * a's are mapped); 0 also for an escaped slack.  The block's start in
 * *L, its slack byte in *SLACK and its size word in *WORD. */
static inline __attribute__((always_inline)) int seg_in_block(const struct rwc_hm_leaf *lf, uintptr_t a, size_t n,
							       uintptr_t floor, uintptr_t *l, unsigned *slack,
							       size_t *word)
{
	size_t g = (a >> 4) & (RWC_HM_GRAINS - 1), sz;
	/* the starts at or below a's grain, a's at the top bit */
	uint64_t m = __atomic_load_n(&RWC_HM_LIVE(lf, g / 64), __ATOMIC_ACQUIRE) << (63 - g % 64);
	unsigned back;

	if (!m)
		return 0;
	back = (unsigned)__builtin_clzll(m); /* grains from the block's start up to a's */
	*slack = __atomic_load_n(&RWC_HM_SLACK(lf, g - back), __ATOMIC_RELAXED);
	*l = (a & ~(uintptr_t)(RWC_HM_GRAIN - 1)) - (uintptr_t)back * RWC_HM_GRAIN;
	if (*l < floor + RWC_CHUNK_HDR || *slack == RWC_HM_ESCAPE)
		return 0;
	*word = rwc_chunk_word(*l);
	sz = *word & ~(size_t)7;
	/* rwc_chunk_usable's sane sizes; a slack above the usable size (which
	 * rwc_heap_in reads as none) is left to the full path */
	if (sz - 4 * sizeof(size_t) > ((size_t)1 << 46) - 4 * sizeof(size_t))
		return 0;
	/* a - l + n <= usable - slack, usable = sz - 8 (16 when mmapped) */
	return a - *l + n + *slack + sizeof(size_t) + ((*word & RWC_CHUNK_IS_MMAPPED) << 2) <= sz;
}

/* Opens a fill of the cache for generation G (emptied when its entries
 * are of another); 0 when this interrupts a fill (a signal handler's
 * call), which then writes nothing. */
static int fill_open(struct rwc_vs_set *t, uint64_t g)
{
	unsigned seq = t->seq;

	if (seq & 1)
		return 0;
	t->seq = seq + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (t->gen != g) {
		for (int i = 0; i < RWC_VS_N; i++)
			t->e[i].span = 0;
		t->gen = g;
	}
	return 1;
}

static void fill_close(struct rwc_vs_set *t)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->seq = t->seq + 1;
}

int rwc_vs_blocks(const struct iovec *iov, long iovcnt, uintptr_t lo, uintptr_t hi, uintptr_t floor,
		  uintptr_t stk, unsigned need, uint64_t g)
{
	struct rwc_vs_set *t = &rwc_vs;
	size_t leaf = lo >> RWC_HM_LEAF_SHIFT;
	const struct rwc_hm_leaf *lf;
	uintptr_t all = ~(uintptr_t)0, any = 0, l;
	int fill, r = 1;

	if (leaf != (hi - 1) >> RWC_HM_LEAF_SHIFT || leaf >= RWC_HM_LEAVES ||
	    !(lf = __atomic_load_n(&rwc_hm_top[leaf], __ATOMIC_ACQUIRE)))
		return 0;
	fill = g && fill_open(t, g);

	for (long i = 0; i < iovcnt; i++) {
		uintptr_t a = (uintptr_t)iov[i].iov_base;
		size_t n = iov[i].iov_len, word;
		unsigned slack;

		if (!n)
			continue;
		if (!seg_in_block(lf, a, n, floor == UINTPTR_MAX ? a & ~(uintptr_t)4095 : floor, &l, &slack, &word) ||
		    (a >= stk && !rwc_stack_above(a, stk))) {
			r = 0;
			break;
		}
		if (fill && a == l) { /* a good segment that starts its block */
			struct rwc_vs *e = &t->e[(a >> 4) & (RWC_VS_N - 1)];
			size_t gr = (a >> 4) & (RWC_HM_GRAINS - 1);

			e->lo = a, e->span = n, e->word = word & ~(size_t)1, e->slack = slack, e->nok = ~need;
			e->livew = &RWC_HM_LIVE(lf, gr / 64), e->slackp = &RWC_HM_SLACK(lf, gr);
		}
		all &= l, any |= l;
	}
	if (fill)
		fill_close(t);
	return r ? (all == any ? 1 : 2) : 0;
}
