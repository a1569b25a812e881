/* overlay.h: the map view's overlay: the few exact changes (mmap, munmap,
 * mprotect the library saw succeed) recorded on top of a snapshot of
 * /proc/self/maps until the next re-read.  Pure: plain arrays, no
 * locking (the snapshot's writer lock and sequence counter guard them),
 * no allocation, signal-safe. */
#ifndef RWC_OVERLAY_H
#define RWC_OVERLAY_H

#include "base/checks.h"

#define RWC_OVL_CAP 32u

struct rwc_ovl {
	uintptr_t start, end;
	int prot; /* RWC_PROT_* bits, -1 unmapped */
};

/* Records that [lo, hi) now has PROT in OVL (*NOVL entries, newest
 * last): overwrites the newest entry for the same range when nothing
 * newer overlaps it (mmap/munmap churn at one address), else appends.
 * 0 when the overlay is full. */
int rwc_ovl_place(struct rwc_ovl *ovl, unsigned *novl, uintptr_t lo, uintptr_t hi, int prot);

/* The overlay's say on v's range: 0 nothing overlaps it, 1 decided (fed
 * into V and finished; *BY the entry that decided), -1 an entry overlaps
 * it only in part (the map must be re-read). */
int rwc_ovl_verdict(const struct rwc_ovl *ovl, unsigned novl, struct rwc_verdict *v, unsigned *by);

/* Whether an entry from FROM on overlaps [lo, hi). */
static inline int rwc_ovl_overlaps(const struct rwc_ovl *ovl, unsigned from, unsigned novl, uintptr_t lo,
				   uintptr_t hi)
{
	for (unsigned k = from; k < novl; k++)
		if (ovl[k].start < hi && lo < ovl[k].end)
			return 1;
	return 0;
}

#endif
