/* segcache.h: the verdict cache of vector calls' segments: a thread's
 * last good segments that start a heap block ([lo, lo+span), within the
 * block's requested bytes and mapped as the call needed), 32 of them
 * direct-mapped by the start, so that a readv of many separate blocks
 * (which thrash the 4 objects of vcache.h) is judged by one look per
 * segment.  As in vcache.h, tagged with the map view's generation, and a
 * block's facts (live bit, slack byte, chunk size word) read again at
 * each use: exact, whatever the program freed or reallocated since.
 * Lock-free, no shared writes, async-signal-safe: a fill runs under an
 * odd sequence count, and a look that saw it change (a signal handler's
 * fill in the middle of it), or odd, is a miss. */
#ifndef RWC_SEGCACHE_H
#define RWC_SEGCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "bounds/bounds.h"
#include "bounds/chunk.h"
#include "bounds/heapmap.h"
#include "mapview/tcache.h"

#define RWC_VS_N 32 /* a power of two */

/* span 0: empty.  WORD: the chunk's size word but for PREV_INUSE; SLACK:
 * the block's slack byte (never escaped); NOK: all but the needs found good;
 * LIVEW, SLACKP: where the heap map keeps the block's live bit (bit
 * (lo >> 4) % 64 of *LIVEW) and slack byte (leaves stay: they stay valid). */
struct rwc_vs {
	uintptr_t lo;
	size_t span, word;
	const uint64_t *livew;
	const uint8_t *slackp;
	uint32_t slack, nok;
};

struct rwc_vs_set {
	unsigned seq;  /* odd while a fill writes */
	uint64_t gen;  /* the map view's generation of every entry (0: none) */
	struct rwc_vs e[RWC_VS_N];
};

extern __thread struct rwc_vs_set rwc_vs __attribute__((tls_model("initial-exec")));

/* Every segment of the vector IOV[0..IOVCNT) (IOVCNT <= IOV_MAX) is
 * empty or an entry's, still good for NEED: the entry's block still
 * starts there with its slack byte and size word, the segment below the
 * caller's sp SP or above this thread's stack.  Their total in *TOTAL. */
int rwc_vs_all(const struct iovec *iov, long iovcnt, unsigned need, uintptr_t sp, size_t *total);

/* rwc_vs_all's first look, inline: the first segment starts an entry's
 * block (or is empty); else the vector is not the cache's (one block
 * read piece by piece, a global...) and costs a few loads. */
static inline __attribute__((always_inline)) int rwc_vs_maybe(const struct iovec *iov, long iovcnt)
{
	uintptr_t a;

	if (iovcnt <= 0)
		return 0;
	a = (uintptr_t)iov[0].iov_base;
	return rwc_vs.e[(a >> 4) & (RWC_VS_N - 1)].lo == a || !iov[0].iov_len;
}

/* The heap check of a vector call's segments, each in the live block
 * starting in its own bitmap word (the quick case of the fast path,
 * which a segment of a separate small block meets), its start below STK
 * (the caller's sp; UINTPTR_MAX without the stack check) or above this
 * stack: how many blocks hold them (1: one, 2: more than one); 0 when a
 * segment is not so simple, or the segments' span [LO, HI) not in one
 * leaf of the heap map (rwc_bounds_fast_on decides each then).  The
 * span's pages are mapped from FLOOR up (the span's first page), or only
 * each segment's own when FLOOR is UINTPTR_MAX.  A good segment that
 * starts its block enters the cache, under the map view's generation G
 * read before the call's checks, as good for NEED. */
int rwc_vs_blocks(const struct iovec *iov, long iovcnt, uintptr_t lo, uintptr_t hi, uintptr_t floor,
		  uintptr_t stk, unsigned need, uint64_t g);

#endif
