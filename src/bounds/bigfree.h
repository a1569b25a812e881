/* bigfree.h: freed large blocks kept as reserved address space.  A block
 * glibc served with its own mapping (IS_MMAPPED) that the quarantine
 * would not hold is not given back to glibc when the program frees it:
 * its mapping is replaced by a PROT_NONE, MAP_NORESERVE anonymous one
 * (mmap MAP_FIXED: one step, the memory given back to the kernel, no
 * RSS), and the block is remembered here, so that a later call whose
 * buffer lies in it is told a use-after-free (bounds.c) rather than an
 * unmapped or unreadable buffer.  The old block of a realloc that moved
 * an mmapped block is reserved the same way (its range refilled with
 * MAP_FIXED_NOREPLACE: only while nothing else took it).
 * A ring of RWC_BIG_SLOTS blocks and a budget of address space (1 GiB,
 * less under a finite RLIMIT_AS): the oldest go out first, each given
 * back once: a block glibc still counts as its own gets its pages and
 * chunk header back and goes to the real free (entry/freeq.c), the rest
 * is unmapped.  Lock-free: a put claims its slot by one atomic add and a
 * compare-and-swap of the slot's sequence word (odd while written; a
 * slot being written is skipped: that block is freed as without this);
 * readers copy a slot between two reads of that word.  No allocation,
 * signal-safe; a fork child inherits the reservations (.bss). */
#ifndef RWC_BIGFREE_H
#define RWC_BIGFREE_H

#include <stddef.h>
#include <stdint.h>

#include "base/checks.h"

#define RWC_BIG_SLOTS 64
#define RWC_BIG_BUDGET ((size_t)1 << 30)

/* One reserved block. */
struct rwc_big {
	uintptr_t start;    /* the block (what malloc returned); 0: none */
	uintptr_t lo, hi;   /* its chunk's mapping, now PROT_NONE */
	size_t prev, word;  /* the chunk header's two words (for glibc's free) */
	unsigned long num;  /* the quarantine's free count after its free (rwc_q_now) */
	int glibc;          /* glibc still counts the mapping as its own */
};

/* Bytes of address space reserved (0: none; the checks' first look). */
extern long rwc_big_held;

static inline int rwc_big_any(void)
{
	return __atomic_load_n(&rwc_big_held, __ATOMIC_RELAXED) > 0;
}

/* Reserves the block B (b->start, lo, hi, prev, word, glibc set; its
 * pages still the program's: GLIBC 1, replaced with MAP_FIXED; else
 * already unmapped by glibc's realloc: MAP_FIXED_NOREPLACE).  1: reserved,
 * and *OUT the older block it pushed out (out->start 0: none), which the
 * caller must now release (rwc_big_release); 0: not reserved (too large,
 * its slot busy, the kernel refused), nothing changed but, for GLIBC 1
 * when a MAP_FIXED failed, -1: the pages may be gone (the view told):
 * the caller must not hand the block to glibc. */
int rwc_big_put(const struct rwc_big *b, struct rwc_big *out);

/* While more than the budget is reserved: the oldest block, taken out
 * (1, *OUT) for the caller to release; else 0. */
int rwc_big_take(struct rwc_big *out);

/* Gives the reservation E back: a block glibc counts as its own gets
 * read-write pages and its chunk header again (1: the caller must now
 * give e->start to the real free); any other is unmapped (0). */
int rwc_big_release(const struct rwc_big *e);

/* The reserved block whose [start, hi) holds A, copied to *E: 1; else 0. */
int rwc_big_find(uintptr_t a, struct rwc_big *e);

/* The full check of [P, P+N) when P lies in a reserved block:
 * RWC_USE_AFTER_FREE with the block (its requested and usable bytes,
 * both sites, how many frees ago) in B and the bad bytes; else RWC_OK. */
enum rwc_problem rwc_big_verdict(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *bad_lo,
				 uintptr_t *bad_hi);

/* A quick look for the fast path: 1 when A may lie in a reserved block
 * (a block seen holding it, perhaps being written), 0 when none does. */
int rwc_big_maybe(uintptr_t a);

/* The program itself changes [A, A+LEN) (munmap, mmap MAP_FIXED,
 * mprotect, mremap): every reservation it overlaps is forgotten, its
 * mapping left as it is (never given back: the range is the program's). */
void rwc_big_forget_slow(uintptr_t a, size_t len);
static inline void rwc_big_forget(uintptr_t a, size_t len)
{
	if (rwc_big_any())
		rwc_big_forget_slow(a, len);
}

#endif
