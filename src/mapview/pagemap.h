/* pagemap.h: which pages of the address space are readable and writable,
 * as a small radix tree over the page number (three directory levels of
 * 512 entries, leaves of 2 bits a page; whole granules that are alike are
 * one entry).  Built with each snapshot; answers "are all pages of this
 * range good" with a few dependent loads that stay in L1 however many
 * mappings there are.  Pure: the caller provides the memory; no
 * allocation, no system call. */
#ifndef RWC_PAGEMAP_H
#define RWC_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

struct rwc_pagemap {
	uint64_t *mem;      /* mem[0..512) is the root directory */
	size_t cap, used;   /* in 64-bit words */
	unsigned shift;     /* log2 of the page size */
	int ok;             /* 0: ran out of memory while building */
};

void rwc_pagemap_init(struct rwc_pagemap *m, uint64_t *mem, size_t cap_words, unsigned page_shift);

/* Pages [lo, hi) are now OK (enum rwc_need bits: what they are good for;
 * 0 for unmapped or no access).  Returns -1 (and clears ok) when out of
 * memory. */
int rwc_pagemap_set(struct rwc_pagemap *m, uintptr_t lo, uintptr_t hi, unsigned ok);

/* 1 when every page of [lo, hi) is good for NEED; [*glo, *ghi) is then a
 * range around it that is good too.  0 otherwise, or when it cannot tell. */
int rwc_pagemap_good(const struct rwc_pagemap *m, uintptr_t lo, uintptr_t hi, unsigned need,
		     uintptr_t *glo, uintptr_t *ghi);

#endif
