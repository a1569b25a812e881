/* heapmap.c: the block-start bitmaps (see heapmap.h). */
#include "config.h"

#include "bounds/heapmap.h"

#include "base/common.h"
#include "mapview/ownmap.h"

#define LEAF_SHIFT RWC_HM_LEAF_SHIFT
#define NLEAVES RWC_HM_LEAVES
#define GRAINS RWC_HM_GRAINS
#define WORDS RWC_HM_WORDS

struct rwc_hm_leaf *rwc_hm_top[NLEAVES];
size_t rwc_hm_top_end RWC_START_DATA;
int rwc_hm_origins = 1;

/* *SLOT, or a new leaf mapped (no block yet: lowest above all) and
 * published there; when another thread published first, ours goes back.
 * NULL without memory.  *SLOT is not read first (its page may be one no
 * one has touched: the exchange's write is its one fault). */
static struct rwc_hm_leaf *map_leaf(struct rwc_hm_leaf **slot)
{
	struct rwc_hm_leaf *cur = NULL, *m = rwc_own_mmap(sizeof *m);

	if (!m)
		return NULL;
	m->lowest = UINTPTR_MAX;
	if (__atomic_compare_exchange_n(slot, &cur, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return m;
	rwc_own_munmap(m, sizeof *m);
	return cur;
}

/* The leaf of A, made when MAKE.  An index at or past the end is not
 * read (the table's page there may be untouched). */
static inline __attribute__((always_inline)) struct rwc_hm_leaf *leaf_of(uintptr_t a, int make)
{
	size_t i = a >> LEAF_SHIFT, e;
	struct rwc_hm_leaf *l = NULL;

	if (RWC_UNLIKELY(i >= NLEAVES))
		return NULL;
	e = __atomic_load_n(&rwc_hm_top_end, __ATOMIC_ACQUIRE);
	if (RWC_LIKELY(i < e))
		l = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE);
	if (RWC_LIKELY(l) || !make)
		return l;
	while (e <= i && !__atomic_compare_exchange_n(&rwc_hm_top_end, &e, i + 1, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return map_leaf(&rwc_hm_top[i]);
}

static inline size_t grain(uintptr_t a)
{
	return (a & ((1ul << LEAF_SHIFT) - 1)) >> 4;
}

/* Whether bit K of the page mask MASK is set; sets it. */
_Static_assert(2 * WORDS / 64 / RWC_HM_PAGE_WORDS <= 64, "a bit per page of the summaries");
static inline int written(uint64_t *mask, size_t k)
{
	uint64_t b = 1ull << (k % 64);

	if (__atomic_load_n(&mask[k / 64], __ATOMIC_RELAXED) & b)
		return 1;
	__atomic_fetch_or(&mask[k / 64], b, __ATOMIC_RELAXED);
	return 0;
}

/* Sets bit G of leaf L's live (FREED 0) or freed bits, and its summary
 * bit.  The summary is read before it is written (its line stays shared
 * between threads) once a write has reached its page. */
static inline void set_bit(struct rwc_hm_leaf *l, int freed, size_t g)
{
	size_t w = g / 64, s = 2 * (w / 64) + (size_t)freed;
	uint64_t sm = 1ull << (w % 64);

	__atomic_fetch_or(&l->bits[2 * w + (size_t)freed], 1ull << (g % 64), __ATOMIC_RELEASE);
	if (!written(&l->sums_written, s / RWC_HM_PAGE_WORDS) || !(__atomic_load_n(&l->sums[s], __ATOMIC_RELAXED) & sm))
		__atomic_fetch_or(&l->sums[s], sm, __ATOMIC_RELEASE);
}

/* set_bit for the freed bits, which are never cleared: a grain freed
 * before (an address the allocator hands out again) costs a load, not
 * a locked write (its page written: the live word beside it was, when
 * the block was recorded or its free cleared it).  The fence orders what
 * the caller stored before (the free site) as set_bit's release would. */
static inline void set_freed_bit(struct rwc_hm_leaf *l, size_t g)
{
	if (__atomic_load_n(&RWC_HM_FREED(l, g / 64), __ATOMIC_RELAXED) & (1ull << (g % 64))) {
		__atomic_thread_fence(__ATOMIC_RELEASE);
		return;
	}
	set_bit(l, 1, g);
}

/* Lowers the leaf's lowest start to P (before the bit is set: a search
 * never skips a block it could find). */
static inline void note_lowest(struct rwc_hm_leaf *l, uintptr_t p)
{
	uintptr_t lo = __atomic_load_n(&l->lowest, __ATOMIC_RELAXED);

	while (p < lo && !__atomic_compare_exchange_n(&l->lowest, &lo, p, 1, __ATOMIC_RELEASE,
						       __ATOMIC_RELAXED))
		;
}

/* The slack byte of the grain at A, in its leaf (made when MAKE). */
static uint8_t *slack_at(uintptr_t a, int make)
{
	struct rwc_hm_leaf *l = leaf_of(a, make);

	return l ? &RWC_HM_SLACK(l, grain(a)) : NULL;
}

/* The slack of the block at P (in leaf L): in its byte, or escaped. */
static void record_request(struct rwc_hm_leaf *l, uintptr_t p, size_t req, size_t usable)
{
	size_t slack = req < usable ? usable - req : 0;

	if (RWC_LIKELY(slack < RWC_HM_ESCAPE)) {
		__atomic_store_n(&RWC_HM_SLACK(l, grain(p)), (uint8_t)slack, __ATOMIC_RELAXED);
		return;
	}
	/* usable > 255: the block covers the next 16 grains at least */
	for (unsigned k = 0; k < RWC_HM_ESCAPE_BYTES; k++) {
		uint8_t *e = slack_at(p + (uintptr_t)(k + 1) * RWC_HM_GRAIN, 1);

		if (!e) { /* no memory for the next leaf: no record */
			__atomic_store_n(&RWC_HM_SLACK(l, grain(p)), 0, __ATOMIC_RELAXED);
			return;
		}
		__atomic_store_n(e, (uint8_t)(req >> (8 * k)), __ATOMIC_RELAXED);
	}
	__atomic_store_n(&RWC_HM_SLACK(l, grain(p)), (uint8_t)RWC_HM_ESCAPE, __ATOMIC_RELAXED);
}

/* The site word of grain G of leaf L (RWC_HM_SITE): one word per two
 * grains (RWC_HM_SITE_SHIFT): glibc's chunks are 32 bytes at least, so
 * two live blocks never share one; a freed block's word is shared only
 * once its memory is another block's. */
_Static_assert(sizeof(size_t) == 8 && RWC_HM_SITE_SHIFT == 5,
	       "a site word per 32 bytes needs glibc's 64-bit MINSIZE of 32");
_Static_assert(sizeof(struct rwc_hm_rec) == 192, "a record: 64 slack bytes, 32 site words");

/* rwc_hm_live_req for any block: makes the leaf and the site words,
 * lowers the lowest start, escapes a large slack. */
static __attribute__((noinline)) void live_req_any(uintptr_t p, uint32_t site, size_t req, size_t usable)
{
	struct rwc_hm_leaf *l;
	size_t g;

	l = leaf_of(p, 1);
	if (!l)
		return;
	g = grain(p);
	note_lowest(l, p);
	if (rwc_hm_origins)
		__atomic_store_n(&RWC_HM_SITE(l, g), site & 0xffffu, __ATOMIC_RELAXED);
	if (req != SIZE_MAX)
		record_request(l, p, req, usable);
	set_bit(l, 0, g); /* release: the record before the bit */
}

/* The common block (its leaf and site words there, not below the
 * lowest start, its slack in one byte) without a call: stores and one
 * locked or. */
struct rwc_hm_leaf *rwc_hm_live_req(uintptr_t p, uint32_t site, size_t req, size_t usable)
{
	size_t i = p >> LEAF_SHIFT, g = grain(p);
	size_t slack = req < usable ? usable - req : 0;
	struct rwc_hm_leaf *l;

	if (RWC_UNLIKELY(!p || (p & (RWC_HM_GRAIN - 1)) || i >= NLEAVES))
		return NULL;
	l = leaf_of(p, 0);
	if (RWC_UNLIKELY(!l || p < __atomic_load_n(&l->lowest, __ATOMIC_RELAXED) || req == SIZE_MAX ||
			 slack >= RWC_HM_ESCAPE)) {
		live_req_any(p, site, req, usable);
		return NULL;
	}
	if (rwc_hm_origins)
		__atomic_store_n(&RWC_HM_SITE(l, g), site & 0xffffu, __ATOMIC_RELAXED);
	__atomic_store_n(&RWC_HM_SLACK(l, g), (uint8_t)slack, __ATOMIC_RELAXED);
	set_bit(l, 0, g); /* release: the record before the bit */
	return l;
}

/* The free site into the site word of grain G (before the freed bit:
 * a search that finds the bit finds the site). */
static inline __attribute__((always_inline)) void note_free_site(struct rwc_hm_leaf *l, size_t g, uint32_t free_site)
{
	uint32_t *w = &RWC_HM_SITE(l, g);

	if (rwc_hm_origins)
		__atomic_store_n(w, (__atomic_load_n(w, __ATOMIC_RELAXED) & 0xffffu) | (free_site << 16),
				 __ATOMIC_RELEASE);
}

void rwc_hm_freed(uintptr_t p, int mark, uint32_t free_site)
{
	struct rwc_hm_leaf *l;
	size_t g;

	if (!p || (p & (RWC_HM_GRAIN - 1)))
		return;
	l = leaf_of(p, 0);
	if (!l)
		return;
	g = grain(p);
	/* The live bit goes first: another thread may be handed this block
	 * again as soon as it is free. */
	__atomic_fetch_and(&RWC_HM_LIVE(l, g / 64), ~(1ull << (g % 64)), __ATOMIC_RELEASE);
	if (mark || free_site)
		note_free_site(l, g, free_site);
	if (mark)
		set_freed_bit(l, g);
}

int rwc_hm_hold(uintptr_t p, uint32_t free_site)
{
	struct rwc_hm_leaf *l;
	uint64_t m;
	size_t g;

	if (!p || (p & (RWC_HM_GRAIN - 1)) || !(l = leaf_of(p, 0)))
		return 0;
	g = grain(p);
	m = 1ull << (g % 64);
	if (!(__atomic_fetch_and(&RWC_HM_LIVE(l, g / 64), ~m, __ATOMIC_ACQ_REL) & m))
		return 0;
	note_free_site(l, g, free_site);
	set_freed_bit(l, g);
	return 1;
}

int rwc_hm_was_freed(uintptr_t p)
{
	const struct rwc_hm_leaf *l;
	size_t g;

	if (!p || (p & (RWC_HM_GRAIN - 1)) || !(l = leaf_of(p, 0)))
		return 0;
	g = grain(p);
	return !(__atomic_load_n(&RWC_HM_LIVE(l, g / 64), __ATOMIC_ACQUIRE) & (1ull << (g % 64))) &&
	       (__atomic_load_n(&RWC_HM_FREED(l, g / 64), __ATOMIC_ACQUIRE) & (1ull << (g % 64)));
}

/* The highest set bit at or below grain G and at or above grain LOW in
 * one leaf's bitmap, as an index + 1; 0 if none.  BITS and SUM: its
 * first word and its summary's, each every other word (RWC_HM_LIVE). */
static size_t prev_bit(const uint64_t *bits, const uint64_t *sum, size_t g, size_t low)
{
	size_t w = g / 64;
	uint64_t m = __atomic_load_n(&bits[2 * w], __ATOMIC_ACQUIRE);

	m &= (g % 64 == 63) ? ~0ull : ((1ull << (g % 64 + 1)) - 1);
	if (m) {
		size_t b = w * 64 + 63 - (size_t)__builtin_clzll(m);
		return b >= low ? b + 1 : 0;
	}
	while (w > low / 64) {
		size_t s = (w - 1) / 64;
		uint64_t sm = __atomic_load_n(&sum[2 * s], __ATOMIC_ACQUIRE);

		sm &= ((w - 1) % 64 == 63) ? ~0ull : ((1ull << ((w - 1) % 64 + 1)) - 1);
		if (!sm) {
			w = s * 64; /* nothing in this summary word below w */
			continue;
		}
		w = s * 64 + 63 - (size_t)__builtin_clzll(sm);
		m = __atomic_load_n(&bits[2 * w], __ATOMIC_ACQUIRE);
		if (m) {
			size_t b = w * 64 + 63 - (size_t)__builtin_clzll(m);
			return b >= low ? b + 1 : 0;
		}
	}
	return 0;
}

uintptr_t rwc_hm_prev(uintptr_t a, int freed, uintptr_t floor)
{
	uintptr_t lowest = a > RWC_HM_SEARCH ? a - RWC_HM_SEARCH : 0;

	if (floor > lowest)
		lowest = floor;
	for (int hop = 0; hop < 2; hop++) {
		const struct rwc_hm_leaf *l = leaf_of(a, 0);
		uintptr_t base = a & ~((1ul << LEAF_SHIFT) - 1);
		size_t low = lowest > base ? grain(lowest) : 0, b;

		if (l && a >= __atomic_load_n(&l->lowest, __ATOMIC_ACQUIRE)) {
			b = prev_bit(l->bits + freed, l->sums + freed, grain(a), low);
			if (b)
				return base + (b - 1) * RWC_HM_GRAIN;
		}
		if (base == 0 || lowest >= base)
			return 0;
		a = base - 1;
	}
	return 0;
}

void rwc_hm_widen(uintptr_t p)
{
	struct rwc_hm_leaf *l;
	size_t g;

	if (!p || (p & (RWC_HM_GRAIN - 1)) || !(l = leaf_of(p, 0)))
		return;
	g = grain(p);
	if (__atomic_load_n(&RWC_HM_LIVE(l, g / 64), __ATOMIC_ACQUIRE) & (1ull << (g % 64)))
		__atomic_store_n(&RWC_HM_SLACK(l, g), 0, __ATOMIC_RELAXED);
}

size_t rwc_hm_requested(uintptr_t p, size_t usable)
{
	const uint8_t *s = slack_at(p, 0);
	size_t req = 0;
	unsigned v;

	if (!s)
		return usable;
	v = __atomic_load_n(s, __ATOMIC_ACQUIRE);
	if (v != RWC_HM_ESCAPE)
		return v <= usable ? usable - v : usable;
	for (unsigned k = 0; k < RWC_HM_ESCAPE_BYTES; k++) {
		const uint8_t *e = slack_at(p + (uintptr_t)(k + 1) * RWC_HM_GRAIN, 0);

		if (!e)
			return usable;
		req |= (size_t)__atomic_load_n(e, __ATOMIC_RELAXED) << (8 * k);
	}
	/* a freed block's record may be overwritten by blocks made inside it */
	return req <= usable ? req : usable;
}

uint32_t rwc_hm_sites(uintptr_t p)
{
	struct rwc_hm_leaf *l = leaf_of(p, 0);
	const uint32_t *w = l && rwc_hm_origins && !(p & (RWC_HM_GRAIN - 1)) ? &RWC_HM_SITE(l, grain(p)) : NULL;

	return w ? __atomic_load_n(w, __ATOMIC_ACQUIRE) : 0;
}
