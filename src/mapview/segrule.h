/* segrule.h: what memory the loader mapped for a module serves, from its
 * program headers (mapview/vouch.c).  Pure. */
#ifndef RWC_SEGRULE_H
#define RWC_SEGRULE_H

#include <stdint.h>

/* A rounded down, up (saturating) to a multiple of PG, a power of 2. */
uintptr_t rwc_seg_down(uintptr_t a, uintptr_t pg);
uintptr_t rwc_seg_up(uintptr_t a, uintptr_t pg);

/* [lo, hi) in the module loaded at BIAS with the program headers
 * PH[0..PHNUM) (ElfW(Phdr)), pages of PG bytes: the needs (enum rwc_need
 * bits) the one PT_LOAD segment whose pages hold it all serves there --
 * no write where PT_GNU_RELRO's pages meet it; 0 where no segment holds
 * it all, or another one's pages meet it.  *RUN_LO, *RUN_HI: the pages
 * around it that serve the same (the segment's, less the RELRO's and
 * other segments' pages). */
unsigned rwc_seg_rule(const void *ph, int phnum, uintptr_t bias, uintptr_t pg, uintptr_t lo, uintptr_t hi,
		      uintptr_t *run_lo, uintptr_t *run_hi);

#endif
