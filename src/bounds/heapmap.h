/* heapmap.h: where malloc blocks start.  One bit per 16-byte granule of
 * address space says "a live block starts here", another "a block that
 * started here was freed"; the allocator wrappers (entry/malloc.c,
 * allocrec.c, freeq.c) set and clear them, the heap check (bounds.c) searches them backwards from a buffer
 * to the block that holds it.  Bits live in 1 GiB leaves mapped on first
 * use (~210 MiB each, MAP_NORESERVE: only the touched pages cost memory,
 * the bits 1/64 of the heap at most, the slack bytes and sites 3/16); a summary bit per
 * bitmap word keeps the backward search short.
 * Lock-free: bits change with atomic operations; a search racing a change
 * may see either state.  Beside the bits, a byte per granule holds the
 * slack of the block that starts there (usable - requested bytes; the
 * requested size of a block with more slack is kept in the bytes of its
 * next granules): the record of what the program asked for, outside its
 * memory.  And unless rwc_hm_origins is 0, a 32-bit word per 32 bytes
 * of address space (a block start's: glibc's chunks are 32 bytes at
 * least) with the ids (sites.h) of where the block was allocated (low 16
 * bits) and, once freed, where it was freed (high 16 bits): 1/8 of the
 * heap at most, its pages touched only where blocks start.  A KiB of
 * address space has its slack bytes and site words side by side in one
 * record (a malloc writes its block's record on one page, not two: in a
 * fork child, whose first write of each page copies it, a page fault
 * less). */
#ifndef RWC_HEAPMAP_H
#define RWC_HEAPMAP_H

#include <stddef.h>
#include <stdint.h>

#define RWC_HM_GRAIN 16u          /* glibc's MALLOC_ALIGNMENT on 64-bit */
#define RWC_HM_SITE_SHIFT 5       /* a site word per 32 bytes: glibc's MINSIZE on 64-bit */
#define RWC_HM_SEARCH (64u << 20) /* how far back a block start is searched */
#define RWC_HM_LEAF_SHIFT 30      /* 1 GiB of address space per leaf */
#define RWC_HM_LEAVES (1u << (47 - RWC_HM_LEAF_SHIFT)) /* below 128 TiB: 1 MiB of .bss */

#define RWC_HM_GRAINS (1ul << (RWC_HM_LEAF_SHIFT - 4)) /* bits per bitmap */
#define RWC_HM_WORDS (RWC_HM_GRAINS / 64)
#define RWC_HM_PAGE_WORDS 512u /* 64-bit words in a 4 KiB page */
/* Word W of leaf L's live and freed bits. */
#define RWC_HM_LIVE(l, w) ((l)->bits[2 * (w)])
#define RWC_HM_FREED(l, w) ((l)->bits[2 * (w) + 1])

/* The record of 64 grains: their slack bytes (see the leaf), then their
 * site words, one per two grains (RWC_HM_SITE_SHIFT). */
struct rwc_hm_rec {
	uint8_t slack[64];
	uint32_t sites[32];
};
/* Grain G's slack byte and site word in leaf L (lvalues; the slack's
 * offset in the records, (g / 64) * 192 + g % 64, written in fewer steps). */
#define RWC_HM_SLACK(l, g) (((uint8_t *)(l)->recs)[(g) + (g) / 64 * 128])
#define RWC_HM_SITE(l, g) ((l)->recs[(g) / 64].sites[(g) % 64 / 2])

/* One leaf: 1 GiB of address space. */
struct rwc_hm_leaf {
	uintptr_t lowest;                   /* no block ever started below this */
	/* On the leaf's first page, which its making writes: what every
	 * record reads, and which pages of the summaries a write has
	 * reached.  A page's first access that is a read maps the zero page,
	 * and the write after it is a second fault; a summary is written
	 * first (one fault) where its page has not been. */
	uint64_t sums_written;              /* bit k: page k of sums */
	/* The live and freed bits side by side (RWC_HM_LIVE, RWC_HM_FREED):
	 * a region of the heap has its bits on one page, not two, and a free
	 * reads the freed word on the line whose live word it has written. */
	_Alignas(4096) uint64_t bits[2 * RWC_HM_WORDS]; /* (page-aligned: so are the summaries, the slack) */
	/* Their summaries, side by side too (live word 2s, freed 2s + 1):
	 * bit w of the live one: the live word w may be nonzero; of the
	 * freed one (never cleared): a hint. */
	uint64_t sums[2 * RWC_HM_WORDS / 64];
	/* RWC_HM_SLACK(l, g): usable - requested bytes of the block that
	 * starts (or started) at grain g; RWC_HM_ESCAPE: the requested size
	 * is the little-endian 8 bytes of grains g+1..g+8's (such a block
	 * spans at least 16 grains, none of which starts a live block).
	 * RWC_HM_SITE(l, g): the sites of that block.  Pages touched only
	 * where blocks start: 3/16 of the heap at most. */
	struct rwc_hm_rec recs[RWC_HM_GRAINS / 64];
};

#define RWC_HM_ESCAPE 255u
#define RWC_HM_ESCAPE_BYTES 8u

extern struct rwc_hm_leaf *rwc_hm_top[RWC_HM_LEAVES];
/* One past the highest index of rwc_hm_top that has a leaf, raised before
 * the leaf is published: an address above it (a stack, most libraries'
 * own data) is answered without a look at the table (whose pages a
 * process start would otherwise touch, a page fault each). */
extern size_t rwc_hm_top_end;

/* No leaf at index I nor at I - 1. */
static inline int rwc_hm_no_leaf(size_t i)
{
	return i >= RWC_HM_LEAVES || i > __atomic_load_n(&rwc_hm_top_end, __ATOMIC_RELAXED);
}

/* The highest start a block may have and still have its chunk's size
 * word (the 8 bytes below its start) reach the byte LAST: how far above a
 * range the checks look for a block it runs into (checks.h
 * rwc_heap_underflow). */
static inline uintptr_t rwc_hm_reach(uintptr_t last)
{
	return last <= UINTPTR_MAX - 8 ? last + 8 : UINTPTR_MAX;
}

/* 1 when no block can start at or below A within the search: the common
 * answer for buffers that are not on the heap, in a few loads. */
static inline int rwc_hm_nothing_below(uintptr_t a)
{
	size_t i = a >> RWC_HM_LEAF_SHIFT;
	const struct rwc_hm_leaf *l;

	if (rwc_hm_no_leaf(i))
		return 1;
	l = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE);
	if (l && a >= __atomic_load_n(&l->lowest, __ATOMIC_ACQUIRE))
		return 0;
	/* near the leaf's start the search reaches into the leaf below */
	return (a & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >= RWC_HM_SEARCH || i == 0 ||
	       !__atomic_load_n(&rwc_hm_top[i - 1], __ATOMIC_ACQUIRE);
}

/* 1 when rwc_hm_nothing_below() holds for every address of [LO, LAST]:
 * within one leaf, the lowest start is above LAST (so above every address
 * below it) and LO is past the reach of the leaf below (so every address
 * above it is too).  One look at the leaf. */
static inline int rwc_hm_nothing_below_span(uintptr_t lo, uintptr_t last)
{
	size_t i = lo >> RWC_HM_LEAF_SHIFT;
	const struct rwc_hm_leaf *l;

	if (i != last >> RWC_HM_LEAF_SHIFT)
		return 0;
	if (rwc_hm_no_leaf(i))
		return 1;
	l = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE);
	if (l && last >= __atomic_load_n(&l->lowest, __ATOMIC_ACQUIRE))
		return 0;
	return (lo & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >= RWC_HM_SEARCH || i == 0 ||
	       !__atomic_load_n(&rwc_hm_top[i - 1], __ATOMIC_ACQUIRE);
}

/* rwc_hm_nothing_below_span(lo, last) for a span asked about again and
 * again, split in what LO and LAST alone decide (rwc_hm_span_prep: 0
 * when the span lies in two leaves, where the answer is always no) and
 * the loads that answer it each time (rwc_hm_span_clear): the span's
 * leaf (none past the leaves: always yes), its lowest start, and the
 * leaf below when LO is within its search's reach. */
struct rwc_hm_span {
	struct rwc_hm_leaf *const *leaf, *const *below;
	uintptr_t last;
};

static inline int rwc_hm_span_prep(uintptr_t lo, uintptr_t last, struct rwc_hm_span *s)
{
	size_t i = lo >> RWC_HM_LEAF_SHIFT;

	*s = (struct rwc_hm_span){NULL, NULL, last};
	if (i != last >> RWC_HM_LEAF_SHIFT)
		return 0;
	if (i < RWC_HM_LEAVES) {
		s->leaf = &rwc_hm_top[i];
		if ((lo & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) < RWC_HM_SEARCH && i > 0)
			s->below = &rwc_hm_top[i - 1];
	}
	return 1;
}

static inline int rwc_hm_span_clear(const struct rwc_hm_span *s)
{
	const struct rwc_hm_leaf *l;

	if (!s->leaf)
		return 1;
	l = __atomic_load_n(s->leaf, __ATOMIC_ACQUIRE);
	if (l && s->last >= __atomic_load_n(&l->lowest, __ATOMIC_ACQUIRE))
		return 0;
	return !s->below || !__atomic_load_n(s->below, __ATOMIC_ACQUIRE);
}

/* Records the block at P (from malloc & co.) as live, allocated at the
 * site SITE (sites.h; 0 unknown) when sites are kept, and that the
 * program asked for REQ of its USABLE bytes (REQ SIZE_MAX: the record
 * stays as it is; REQ > USABLE: as if it asked USABLE); a no-op for
 * addresses it cannot track.  Returns P's leaf when the record is the
 * common one (the slack, USABLE - REQ, in P's own slack byte), else NULL. */
struct rwc_hm_leaf *rwc_hm_live_req(uintptr_t p, uint32_t site, size_t req, size_t usable);
static inline void rwc_hm_live(uintptr_t p, uint32_t site)
{
	(void)rwc_hm_live_req(p, site, SIZE_MAX, 0);
}
/* Records that the block at P is being freed at site FREE_SITE (0: the
 * site word stays as it is unless MARK); MARK: remember it as a freed
 * block (not for blocks whose memory is unmapped). */
void rwc_hm_freed(uintptr_t p, int mark, uint32_t free_site);
/* When a live block starts at P: records it freed at FREE_SITE and
 * remembered as a freed block, and returns 1 (the quarantine may hold
 * it: malloc & co. gave it and it was recorded); else changes nothing
 * and returns 0. */
int rwc_hm_hold(uintptr_t p, uint32_t free_site);
/* 1 when a block that started at P was freed (and no live one starts
 * there now). */
int rwc_hm_was_freed(uintptr_t p);

/* The program asked malloc_usable_size() about the live block at P: it
 * may use all of it, and is judged by its usable size from now on. */
void rwc_hm_widen(uintptr_t p);
/* The bytes the program asked for of the block (live or freed) at P whose
 * usable size is USABLE; USABLE when the record says nothing sensible. */
size_t rwc_hm_requested(uintptr_t p, size_t usable);

/* The nearest live (FREED 0) or freed (FREED 1) block start at or below
 * A, no further back than RWC_HM_SEARCH nor below FLOOR; 0 if none. */
uintptr_t rwc_hm_prev(uintptr_t a, int freed, uintptr_t floor);

/* A site key with this bit is a trace id of depot.h; else a call site. */
#define RWC_HM_TRACE ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/* The site ids of the block (live or freed) that starts at P: allocated
 * at the low 16 bits, freed at the high 16 (sites.h); 0 unknown. */
uint32_t rwc_hm_sites(uintptr_t p);
#define RWC_HM_ALLOC_SITE(w) ((w) & 0xffffu)
#define RWC_HM_FREE_SITE(w) ((w) >> 16)

/* Keep sites (RWCHECK_HEAP_ORIGINS: 0 none, 1 the call site (the
 * default), more: a trace of that many frames); set before blocks are
 * recorded to have them all. */
extern int rwc_hm_origins;

/* A's leaf (NULL: none) and, when there is one, A's grain in it in *G. */
static inline __attribute__((always_inline)) const struct rwc_hm_leaf *rwc_hm_leaf_at(uintptr_t a, size_t *g)
{
	size_t i = a >> RWC_HM_LEAF_SHIFT;
	const struct rwc_hm_leaf *l;

	if (rwc_hm_no_leaf(i) || !(l = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE)))
		return NULL;
	*g = (a & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >> 4;
	return l;
}

/* The live block starting in the same 64-grain word as A, at or below it,
 * and its slack byte in *SLACK: the quick case of rwc_hm_prev (a buffer
 * near its block's start); 0 when the answer needs the full search. */
static inline __attribute__((always_inline)) uintptr_t rwc_hm_near_slack(uintptr_t a, unsigned *slack)
{
	size_t g;
	const struct rwc_hm_leaf *l = rwc_hm_leaf_at(a, &g);
	uint64_t m;

	if (!l)
		return 0;
	m = __atomic_load_n(&RWC_HM_LIVE(l, g / 64), __ATOMIC_ACQUIRE) & (~0ull >> (63 - g % 64));
	if (!m)
		return 0;
	g = (g & ~(size_t)63) + 63 - (size_t)__builtin_clzll(m);
	*slack = __atomic_load_n(&RWC_HM_SLACK(l, g), __ATOMIC_RELAXED);
	return (a & ~((1ul << RWC_HM_LEAF_SHIFT) - 1)) + g * RWC_HM_GRAIN;
}

/* 1 when a live block starts at S (a grain's start), with its slack byte
 * in *SLACK: a lookup of a start the caller remembers. */
static inline int rwc_hm_live_slack(uintptr_t s, unsigned *slack)
{
	size_t g;
	const struct rwc_hm_leaf *l = rwc_hm_leaf_at(s, &g);

	if (!l || !((__atomic_load_n(&RWC_HM_LIVE(l, g / 64), __ATOMIC_ACQUIRE) >> (g % 64)) & 1))
		return 0;
	*slack = __atomic_load_n(&RWC_HM_SLACK(l, g), __ATOMIC_RELAXED);
	return 1;
}

/* 1 when a live block starts at P (its bit only: a free's look, where
 * the slack byte's line would be one more cache miss). */
static inline int rwc_hm_live_at(uintptr_t p)
{
	size_t g;
	const struct rwc_hm_leaf *l;

	if (!p || (p & (RWC_HM_GRAIN - 1)) || !(l = rwc_hm_leaf_at(p, &g)))
		return 0;
	return (__atomic_load_n(&RWC_HM_LIVE(l, g / 64), __ATOMIC_ACQUIRE) >> (g % 64)) & 1;
}

static inline uintptr_t rwc_hm_near(uintptr_t a)
{
	unsigned s;

	return rwc_hm_near_slack(a, &s);
}

/* The escaped requested size of the block at L (slack byte
 * RWC_HM_ESCAPE): the 8 slack bytes after its own, when they lie in its
 * leaf; SIZE_MAX when not. */
static inline size_t rwc_hm_escaped(uintptr_t l)
{
	size_t i = l >> RWC_HM_LEAF_SHIFT, g = (l & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >> 4, req = 0;
	const struct rwc_hm_leaf *lf;

	if (i >= RWC_HM_LEAVES || g + RWC_HM_ESCAPE_BYTES >= RWC_HM_GRAINS ||
	    !(lf = __atomic_load_n(&rwc_hm_top[i], __ATOMIC_ACQUIRE)))
		return SIZE_MAX;
	for (unsigned k = 0; k < RWC_HM_ESCAPE_BYTES; k++) /* little-endian, as written */
		req |= (size_t)__atomic_load_n(&RWC_HM_SLACK(lf, g + 1 + k), __ATOMIC_RELAXED) << (8 * k);
	return req;
}

/* The requested bytes of a block of USABLE bytes whose slack byte is S
 * (rwc_hm_requested without the escape: SIZE_MAX for it). */
static inline size_t rwc_hm_requested_quick(unsigned s, size_t usable)
{
	if (s == RWC_HM_ESCAPE)
		return SIZE_MAX;
	return s <= usable ? usable - s : usable;
}

#endif
