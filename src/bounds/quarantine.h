/* quarantine.h: freed heap blocks held back from reuse (RWCHECK_QUARANTINE
 * bytes), so that a read or write into one finds it still freed (a
 * use-after-free) rather than reused by another block.  free and realloc
 * (entry/freeq.c) put a freed glibc block in and really free what comes
 * out, oldest first.
 * A ring of pointers, lock-free: a free claims the next slot with one
 * atomic add and exchanges its block in, getting back whatever an older
 * turn of the ring left there (held one ring's length, at most); over the
 * byte limit, the oldest blocks are claimed from the head and given back.
 * The ring counts the frees it saw: a block's slot says how many frees
 * ago it went in.  The ring is private memory mapped on first use: a fork
 * child inherits it with the blocks it holds.  No lock, no allocation
 * after that mapping; blocks are sized from glibc's chunk headers, which
 * the quarantine only reads. */
#ifndef RWC_QUARANTINE_H
#define RWC_QUARANTINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/knobs.h"
#include "bounds/chunk.h"


/* The byte limit (0: off); set before the first free to have it all. */
extern size_t rwc_q_limit;

/* Would the quarantine hold a block of chunk size N? */
static inline int rwc_q_wants(size_t n)
{
	size_t lim = __atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED);

	return lim && n <= lim / 4;
}

/* The chunk size (header and all) of glibc's block at P: what holding it
 * keeps from reuse. */
static inline size_t rwc_q_chunk_size(uintptr_t p)
{
	return rwc_chunk_word(p) & ~(size_t)7;
}

/* Holds the glibc block P of chunk size SIZE (rwc_q_chunk_size).
 * Returns a block the caller must now give to the real free: one an
 * older turn of the ring left in P's slot, or P itself when the ring
 * cannot hold it; NULL for none. */
void *rwc_q_put(void *p, size_t size);
/* A free the quarantine does not hold (a reserved large block,
 * bigfree.h) counted all the same: it takes the next number (*NUM, 1 +
 * the free's number; 0: none, the ring is not mapped) and its ring slot
 * is emptied.  Returns what rwc_q_put returns: a block to give back. */
void *rwc_q_tick(unsigned long *num);
/* The number the next free would take: a free whose *NUM (rwc_q_tick)
 * is N was rwc_q_now() + 1 - N frees ago. */
unsigned long rwc_q_now(void);
/* Maps the ring now (the constructor: before the program can make the
 * holes a later first-use mapping could land in). */
void rwc_q_prepare(void);

/* While the quarantine holds more than its limit: its oldest block, which
 * the caller must now give to the real free; else NULL.  Inline: the
 * common answer (within the limit) is two loads. */
void *rwc_q_take_slow(void);
struct rwc_q_ctr {
	long held; /* bytes held */
	unsigned long tail, head;
} __attribute__((aligned(64))); /* a line of their own (frees write it) */
extern struct rwc_q_ctr rwc_q_ctr; /* (see quarantine.c) */
static inline void *rwc_q_take(void)
{
	if (__atomic_load_n(&rwc_q_ctr.held, __ATOMIC_RELAXED) <= (long)__atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED))
		return NULL;
	return rwc_q_take_slow();
}

/* How many frees (into the quarantine) ago the block P was held: 1 for
 * the latest; 0 when the quarantine does not hold it.  Scans the ring:
 * for reports only. */
unsigned long rwc_q_age(uintptr_t p);

#endif
