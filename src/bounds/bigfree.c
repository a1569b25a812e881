/* bigfree.c: the ring of reserved freed large blocks (see bigfree.h).
 * Slot i of the ring holds the block of put number i, i modulo its
 * length; tail is the next put's number, head the oldest not yet taken
 * out by the budget.  A block leaves its slot once, under the slot's
 * sequence word (a put that pushes it out, a take, a forget), so each
 * is given back exactly once, whichever thread takes it. */
#include "config.h"

#include "bounds/bigfree.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "base/common.h"
#include "base/ownmem.h"
#include "base/real.h"
#include "bounds/heapmap.h"
#include "bounds/quarantine.h"
#include "bounds/sites.h"
#include "mapview/mapnews.h"
#include "mapview/snapshot.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

struct slot {
	unsigned long seq; /* even: stable; odd: being written */
	unsigned long ord; /* the put number of its block */
	struct rwc_big b;  /* b.start 0: empty */
};

static struct slot slots[RWC_BIG_SLOTS];
static unsigned long tail RWC_START_DATA, head RWC_START_DATA;
static size_t budget RWC_START_DATA; /* 0: not known yet */
long rwc_big_held RWC_START_DATA;

/* The budget: 1 GiB, or a sixteenth of a finite address-space limit
 * (PROT_NONE mappings count against RLIMIT_AS). */
static size_t get_budget(void)
{
	size_t b = __atomic_load_n(&budget, __ATOMIC_RELAXED);
	struct rlimit rl;

	if (RWC_LIKELY(b))
		return b;
	b = RWC_BIG_BUDGET;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 16 < b)
		b = rl.rlim_cur / 16 ? (size_t)(rl.rlim_cur / 16) : 1;
	__atomic_store_n(&budget, b, __ATOMIC_RELAXED);
	return b;
}

static size_t len_of(const struct rwc_big *b)
{
	return b->start ? b->hi - b->lo : 0;
}

/* The slot S for this thread to change: 1 and *Q its even sequence
 * word, now odd; 0 while another writer has it. */
static int claim(struct slot *s, unsigned long *q)
{
	*q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	return !(*q & 1) && __atomic_compare_exchange_n(&s->seq, q, *q + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void unclaim(struct slot *s, unsigned long q)
{
	__atomic_store_n(&s->seq, q + 2, __ATOMIC_RELEASE);
}

#define LD(f) __atomic_load_n(&s->b.f, __ATOMIC_RELAXED)
#define ST(f, v) __atomic_store_n(&s->b.f, (v), __ATOMIC_RELAXED)

static void get(const struct slot *s, struct rwc_big *e)
{
	e->start = LD(start);
	e->lo = LD(lo);
	e->hi = LD(hi);
	e->prev = LD(prev);
	e->word = LD(word);
	e->num = LD(num);
	e->glibc = LD(glibc);
}

static void set(struct slot *s, const struct rwc_big *e)
{
	ST(lo, e->lo);
	ST(hi, e->hi);
	ST(prev, e->prev);
	ST(word, e->word);
	ST(num, e->num);
	ST(glibc, e->glibc);
	ST(start, e->start);
}

/* Takes the block out of the claimed slot S into *OUT (start 0: none). */
static void empty(struct slot *s, struct rwc_big *out)
{
	get(s, out);
	if (out->start) {
		ST(start, 0);
		__atomic_fetch_sub(&rwc_big_held, (long)len_of(out), __ATOMIC_RELAXED);
	}
}

/* Replaces B's pages with a PROT_NONE reservation: 1 done, 0 not (the
 * pages as they were), -1 the pages may be gone (a MAP_FIXED failed). */
static int reserve(const struct rwc_big *b)
{
	size_t len = b->hi - b->lo;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (b->glibc ? MAP_FIXED : MAP_FIXED_NOREPLACE);
	void *r = REAL(mmap)((void *)b->lo, len, PROT_NONE, flags, -1, 0);

	if (r == (void *)b->lo) {
		rwc_watch_mmap(r, len, PROT_NONE, MAP_PRIVATE);
		return 1;
	}
	if (r != MAP_FAILED) /* a kernel without MAP_FIXED_NOREPLACE put it elsewhere */
		REAL(munmap)(r, len);
	else if (b->glibc) {
		rwc_map_changed();
		return -1;
	}
	return 0;
}

int rwc_big_put(const struct rwc_big *b, struct rwc_big *out)
{
	int e = errno, r;
	unsigned long ord, q;
	struct slot *s;

	out->start = 0;
	if (!b->start || b->hi <= b->lo || b->hi - b->lo > get_budget())
		return 0;
	ord = __atomic_fetch_add(&tail, 1, __ATOMIC_ACQ_REL);
	s = &slots[ord % RWC_BIG_SLOTS];
	if (!claim(s, &q))
		return 0; /* another writer has the slot: not reserved */
	if ((r = reserve(b)) <= 0) {
		unclaim(s, q);
		errno = e;
		return r;
	}
	empty(s, out);
	s->ord = ord;
	set(s, b);
	__atomic_fetch_add(&rwc_big_held, (long)len_of(b), __ATOMIC_RELAXED);
	unclaim(s, q);
	errno = e;
	return 1;
}

int rwc_big_take(struct rwc_big *out)
{
	while (__atomic_load_n(&rwc_big_held, __ATOMIC_RELAXED) > (long)get_budget()) {
		unsigned long h = __atomic_load_n(&head, __ATOMIC_ACQUIRE), q;
		unsigned long t = __atomic_load_n(&tail, __ATOMIC_ACQUIRE), to = h + 1;
		struct slot *s;

		if (h >= t)
			return 0;
		if (t - h > RWC_BIG_SLOTS)
			to = t - RWC_BIG_SLOTS; /* older turns went out by later puts */
		if (!__atomic_compare_exchange_n(&head, &h, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) || to != h + 1)
			continue;
		s = &slots[h % RWC_BIG_SLOTS];
		if (!claim(s, &q))
			continue; /* being written: the next turn's put pushes it out */
		out->start = 0;
		if (s->ord == h)
			empty(s, out);
		unclaim(s, q);
		if (out->start)
			return 1;
	}
	return 0;
}

int rwc_big_release(const struct rwc_big *b)
{
	int e = errno, m;
	size_t len = b->hi - b->lo;
	void *r;

	(void)rwc_ownmem_get(); /* before the hole (ownmem.h) */
	if (b->glibc) {
		r = REAL(mmap)((void *)b->lo, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (r == (void *)b->lo) {
			rwc_watch_mmap(r, len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
			((size_t *)b->start)[-2] = b->prev;
			((size_t *)b->start)[-1] = b->word;
			errno = e;
			return 1;
		}
		rwc_map_changed();
	}
	m = REAL(munmap)((void *)b->lo, len);
	rwc_watch_munmap((void *)b->lo, len, m != 0);
	errno = e;
	return 0;
}

/* A consistent copy of slot S: 1 when it holds a block. */
static int read_slot(const struct slot *s, struct rwc_big *e)
{
	for (int tries = 0; tries < 4; tries++) {
		unsigned long q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);

		if (q & 1)
			return 0;
		get(s, e);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == q)
			return e->start != 0;
	}
	return 0;
}

int rwc_big_maybe(uintptr_t a)
{
	if (!rwc_big_any())
		return 0;
	for (int k = 0; k < RWC_BIG_SLOTS; k++) {
		const struct slot *s = &slots[k];
		uintptr_t st = LD(start);

		if (st && a >= st && a < LD(hi))
			return 1;
	}
	return 0;
}

int rwc_big_find(uintptr_t a, struct rwc_big *e)
{
	if (!rwc_big_any())
		return 0;
	for (int k = 0; k < RWC_BIG_SLOTS; k++) {
		const struct slot *s = &slots[k];
		uintptr_t st = LD(start);

		if (st && a >= st && a < LD(hi) && read_slot(s, e) && a >= e->start && a < e->hi)
			return 1;
	}
	return 0;
}

void rwc_big_forget_slow(uintptr_t a, size_t len)
{
	uintptr_t end = len > UINTPTR_MAX - a ? UINTPTR_MAX : a + len;

	for (int k = 0; k < RWC_BIG_SLOTS; k++) {
		struct slot *s = &slots[k];
		struct rwc_big gone;
		unsigned long q;

		if (!LD(start) || LD(lo) >= end || LD(hi) <= a || !claim(s, &q))
			continue;
		if (s->b.start && s->b.lo < end && s->b.hi > a)
			empty(s, &gone); /* the program's now: left as it is */
		unclaim(s, q);
	}
}

enum rwc_problem rwc_big_verdict(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	struct rwc_heap_block none = {0}, fb;
	enum rwc_problem pr;
	struct rwc_big e;
	unsigned long now;
	uint32_t w;

	if (!rwc_big_find(p, &e))
		return RWC_OK;
	fb.start = e.start;
	fb.usable = e.hi - e.start;
	fb.size = rwc_hm_requested(e.start, fb.usable);
	fb.header = 0;
	pr = rwc_heap_verdict(p, n, &none, &fb, b, bad_lo, bad_hi);
	if (pr == RWC_OK)
		return pr;
	w = rwc_hm_sites(e.start);
	b->origin = rwc_site_key(RWC_HM_ALLOC_SITE(w));
	b->freed_at = rwc_site_key(RWC_HM_FREE_SITE(w));
	now = rwc_q_now();
	b->freed_ago = e.num && now + 1 > e.num ? now + 1 - e.num : 0;
	return pr;
}
