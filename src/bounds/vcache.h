/* vcache.h: the verdict cache: a thread's few objects (a live heap block's
 * requested bytes, a global object) whose every byte was lately found good
 * for every check in force: mapped as needed, and one object; and the
 * block its malloc & co. returned last (memory glibc hands out readable
 * and writable).  A buffer
 * inside one is good in one lookup, without asking the map view, the heap
 * map or the global check again.  Tagged with the map view's generation
 * (any map change empties it); a heap block's facts (live, slack, usable
 * size) are read again at each use, so no free or realloc has to clear it.
 * Never used for a buffer that may lie in this thread's stack (those go to
 * the stack check).  Lock-free, no shared writes, async-signal-safe: an
 * entry being written is invalid until its span is published. */
#ifndef RWC_VCACHE_H
#define RWC_VCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "bounds/bounds.h"
#include "bounds/chunk.h"
#include "bounds/fastbounds.h"
#include "bounds/globals.h"
#include "bounds/heapmap.h"
#include "mapview/tcache.h"

#define RWC_VC_N 4
/* Slot RWC_VC_N: the block this thread's malloc & co. returned last,
 * entered by the allocator wrappers (rwc_vc_fresh), so that a buffer at a
 * fresh block is good in one look without evicting the objects the
 * thread's calls found (slots 0..RWC_VC_N-1, taken in turn). */
#define RWC_VC_FRESH RWC_VC_N

/* [lo, lo+span) is good for the needs in OK.  A heap block starts at lo
 * when LIVEW is set: it is still the block found while bit BIT of the
 * heap map's word *LIVEW says a live block starts there, the map's slack
 * byte *SLACKP is SLACK and its chunk's size word, but for the flag that
 * follows its neighbour (PREV_INUSE), is WORD, and (an escaped slack)
 * its requested size kept in the next slack bytes is SPAN (leaves of the
 * heap map are never unmapped).  span 0: empty. */
struct rwc_vc {
	uintptr_t lo, span;
	const uint64_t *livew;
	const uint8_t *slackp;
	uint64_t bit;
	size_t word;
	unsigned ok, slack;
};

struct rwc_vc_set {
	uint64_t gen; /* the map view's generation of every entry (0: none) */
	uintptr_t cand; /* the object a good call found last, not entered yet */
	unsigned next;
	int fresh_busy; /* rwc_vc_fresh is writing the fresh slot */
	struct rwc_vc e[RWC_VC_N + 1];
};

extern __thread struct rwc_vc_set rwc_vc __attribute__((tls_model("initial-exec")));

/* The heap block of E is still the one found (its header was readable
 * when found, and the map has not changed since). */
static inline int rwc_vc_block_same(const struct rwc_vc *e)
{
	return (__atomic_load_n(e->livew, __ATOMIC_ACQUIRE) & e->bit) &&
	       __atomic_load_n(e->slackp, __ATOMIC_RELAXED) == e->slack &&
	       (rwc_chunk_word(e->lo) & ~(size_t)1) == e->word &&
	       (e->slack != RWC_HM_ESCAPE || rwc_hm_escaped(e->lo) == e->span);
}

/* A buffer at A not in this thread's stack below its outermost frame
 * (SP0: the caller's sp). */
static inline int rwc_vc_off_stack(uintptr_t a, uintptr_t sp0)
{
	return a < sp0 || rwc_stack_above(a, sp0);
}

/* [a, a+n) lies in an object of this thread's cache, good for NEED (A
 * not in this thread's stack). */
static inline __attribute__((always_inline)) int rwc_vc_lookup(uintptr_t a, size_t n, unsigned need)
{
	const struct rwc_vc_set *s = &rwc_vc;

	if (s->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE))
		return 0;
#pragma GCC unroll 8
	for (int i = 0; i <= RWC_VC_FRESH; i++) {
		const struct rwc_vc *e = &s->e[i];

		uintptr_t lo = e->lo, span = e->span;

		if (a - lo < span && n <= span - (a - lo) && (e->ok & need) == need &&
		    (!e->livew || rwc_vc_block_same(e))) {
			/* (the entry as read first: a signal handler's malloc or
			 * call may have written it over between the loads) */
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			if (e->lo == lo && e->span == span)
				return 1;
		}
	}
	return 0;
}

/* The inline look of an entry point at a buffer [a, a+n) the call needs
 * NEED of (SP0, PC: the caller's sp and the return address into it): an
 * object of the verdict cache, or a frame the stack check walked lately
 * for this call (a live frame of this thread's stack: mapped, writable). */
static inline __attribute__((always_inline)) int rwc_vc_good(uintptr_t a, size_t n, unsigned need, uintptr_t sp0, uintptr_t pc)
{
	if (!rwc_vc_off_stack(a, sp0))
		return n <= UINTPTR_MAX - a && rwc_stack_in_frame(a, a + n, sp0, pc);
	return rwc_vc_lookup(a, n, need);
}

/* The good call's buffer [a, a+n) was found good for NEED by the checks
 * in force under generation G (read before they looked): remembers the
 * object holding it, when there is one to remember. */
void rwc_vc_note(uintptr_t a, size_t n, unsigned need, uintptr_t sp0, uint64_t g);

/* Empties this thread's set for generation G. */
void rwc_vc_new_gen(uint64_t g);

/* The allocator wrappers' record of a new live block at P in the heap
 * map's leaf L, of REQ requested bytes (its slack byte SLACK) and chunk
 * size word WORD: it becomes this thread's fresh slot, good for reading
 * and writing its requested bytes (glibc hands out memory mapped readable
 * and writable), its heap map facts read again at each use like any
 * block's.  Nothing while the bounds checks leave the heap alone or the
 * map view has no generation yet.  A signal handler's malloc that
 * interrupts the write leaves the slot to it. */
static inline __attribute__((always_inline)) void rwc_vc_fresh(const struct rwc_hm_leaf *l, uintptr_t p, size_t req,
							       unsigned slack, size_t word)
{
	struct rwc_vc_set *s = &rwc_vc;
	struct rwc_vc *e = &s->e[RWC_VC_FRESH];
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	size_t gr = (p & ((1ul << RWC_HM_LEAF_SHIFT) - 1)) >> 4;

	if (!g || !req || !(rwc_bounds_on() & RWC_CHECK_HEAP) || s->fresh_busy)
		return;
	s->fresh_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (RWC_UNLIKELY(s->gen != g))
		rwc_vc_new_gen(g);
	e->span = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->lo = p;
	e->livew = &RWC_HM_LIVE(l, gr / 64);
	e->bit = 1ull << (gr % 64);
	e->slackp = &RWC_HM_SLACK(l, gr);
	e->slack = slack;
	e->word = word & ~(size_t)1;
	e->ok = RWC_NEED_READ | RWC_NEED_WRITE;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->span = req;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->fresh_busy = 0;
}

/* rwc_vc_note after a buffer call whose fast path found its heap block
 * (rwc_heap_seen) or global: its first step inline, a block seen for the
 * first time (a fresh one) only becoming the candidate, without a call. */
static inline __attribute__((always_inline)) void rwc_vc_seen(uintptr_t a, size_t n, unsigned need, uintptr_t sp0,
							      uint64_t g)
{
	uintptr_t l = rwc_heap_seen.l;

	/* (the block holds a: rwc_heap_in found it so) */
	if (l && l != rwc_vc.cand && n && g && rwc_vc_off_stack(a, sp0))
		rwc_vc.cand = l;
	else if (l || rwc_glob_seen)
		rwc_vc_note(a, n, need, sp0, g);
}

#endif
