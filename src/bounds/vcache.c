/* vcache.c: filling the verdict cache (vcache.h) after a good call: the
 * live heap block or the global object that holds the call's buffer,
 * when the whole object is known good for what the call needed.  Reads
 * only the library's own tables and memory the view vouches for; no lock,
 * no allocation, no system call: async-signal-safe. */
#include "config.h"

#include "bounds/vcache.h"

#include "bounds/fastbounds.h"
#include "bounds/globals.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

TLS struct rwc_vc_set rwc_vc;
TLS struct rwc_heap_seen rwc_heap_seen;

/* The live block holding A, found as the fast path finds it (its own
 * bitmap word, or a start this thread found lately), described in V with
 * its requested bytes in *REQ; 0 when not found so, its header not known
 * readable or its size not recorded in its slack byte. */
static int block_of(uintptr_t a, struct rwc_vc *v, size_t *req)
{
	unsigned slack;
	uintptr_t l = rwc_heap_seen.l;
	const struct rwc_hm_leaf *leaf;
	size_t g, usable = rwc_heap_seen.usable;

	if (l && l <= a && a - l < usable) { /* this call's block, as the fast path found it */
		slack = rwc_heap_seen.slack;
		goto found;
	}
	l = rwc_hm_near_slack(a, &slack);
	for (int i = 0; !l && i < RWC_HBLOCKS; i++) {
		uintptr_t s = rwc_hblock[i];

		if (s && s <= a && a - s < RWC_HM_SEARCH && rwc_hm_live_slack(s, &slack))
			l = s;
	}
	if (!l || (((l - RWC_CHUNK_HDR) ^ a) >> 12 &&
		   !rwc_fast_range((const void *)(l - RWC_CHUNK_HDR), RWC_CHUNK_HDR, RWC_NEED_READ)))
		return 0;
	usable = rwc_chunk_usable(rwc_chunk_word(l));
found:
	*req = rwc_hm_requested_quick(slack, usable);
	if (*req == SIZE_MAX)
		*req = rwc_hm_escaped(l);
	if (!usable || *req > usable)
		return 0;
	leaf = __atomic_load_n(&rwc_hm_top[l >> RWC_HM_LEAF_SHIFT], __ATOMIC_ACQUIRE);
	g = (l & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >> 4;
	v->lo = l;
	v->livew = &RWC_HM_LIVE(leaf, g / 64);
	v->bit = 1ull << (g % 64);
	v->slackp = &RWC_HM_SLACK(leaf, g);
	v->slack = slack;
	v->word = rwc_chunk_word(l) & ~(size_t)1;
	return 1;
}

/* The global object holding A from this thread's global cache of
 * generation G: [*lo, *lo + *span); 0 when none. */
static int object_of(uintptr_t a, uint64_t g, uintptr_t *lo, uintptr_t *span)
{
	const struct rwc_gcache_set *c = &rwc_gcache;

	if (c->gen != g || a - c->none.lo < c->none.span) /* outside every image */
		return 0;
	for (int i = 0; i < RWC_GCACHE_N; i++) {
		const struct rwc_gcache *e = &c->e[i];

		if (a - e->lo < e->span) {
			if (e->lim == UINTPTR_MAX) /* a run without objects */
				return 0;
			*lo = e->lo;
			*span = e->span;
			return 1;
		}
	}
	return 0;
}

/* Writes E; a signal handler that interrupts this sees it empty (span 0)
 * until the rest is written. */
static void put(struct rwc_vc *e, const struct rwc_vc *v)
{
	e->span = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->lo = v->lo;
	e->livew = v->livew;
	e->slackp = v->slackp;
	e->bit = v->bit;
	e->word = v->word;
	e->slack = v->slack;
	e->ok = v->ok;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->span = v->span;
}

/* Makes G the generation of this thread's set, emptying it when it was
 * another's. */
static void set_gen(struct rwc_vc_set *s, uint64_t g)
{
	if (s->gen == g)
		return;
	s->gen = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	for (int i = 0; i <= RWC_VC_FRESH; i++)
		s->e[i].span = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->gen = g;
}

/* Enters V under generation G (a copy of an entry is harmless: the first
 * that holds a buffer decides, and copies agree).  A slot is taken before
 * it is written, so a handler's fill that interrupts this one writes
 * another. */
static void enter(const struct rwc_vc *v, uint64_t g)
{
	struct rwc_vc_set *s = &rwc_vc;
	unsigned slot;

	set_gen(s, g); /* a new generation: the old entries go */
	slot = s->next++ % RWC_VC_N;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	put(&s->e[slot], v);
}

void rwc_vc_note(uintptr_t a, size_t n, unsigned need, uintptr_t sp0, uint64_t g)
{
	unsigned on = rwc_bounds_on();
	struct rwc_vc v = {0};
	size_t req;

	if (!on || !n || !g || !rwc_vc_off_stack(a, sp0))
		return;
	/* an object is remembered the second time in a row a call that
	 * missed the cache finds it: a block read once (a fresh buffer) costs
	 * no entry, and evicts none */
	if (rwc_heap_seen.l && rwc_heap_seen.l <= a && a - rwc_heap_seen.l < rwc_heap_seen.usable &&
	    rwc_heap_seen.l != rwc_vc.cand) {
		rwc_vc.cand = rwc_heap_seen.l;
		return;
	}
	if ((on & RWC_CHECK_HEAP) && !rwc_hm_nothing_below(a) && block_of(a, &v, &req)) {
		if (a - v.lo >= req || n > req - (a - v.lo))
			return; /* not within the block (the full check decided) */
		v.span = req;
	} else if (!(on & RWC_CHECK_GLOBAL) || !object_of(a, g, &v.lo, &v.span)) {
		return; /* in no object (or in one of the heap this cache cannot find) */
	}
	if (v.lo != rwc_vc.cand) {
		rwc_vc.cand = v.lo;
		return;
	}
	v.ok = RWC_NEED_READ | RWC_NEED_WRITE;
	if (!rwc_fast_range((const void *)v.lo, v.span, v.ok) && !rwc_fast_range((const void *)v.lo, v.span, v.ok = need))
		return;
	if (__atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE) == g)
		enter(&v, g);
}

void rwc_vc_new_gen(uint64_t g)
{
	set_gen(&rwc_vc, g);
}
