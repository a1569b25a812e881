/* snapdata.h: the snapshot's layout (snapshot.c, snaprun.c only): the
 * two snapshot buffers in the library's own memory, their regions sorted
 * by address with a two-level index, the page map, the overlay, and the
 * indexes of the named regions. */
#ifndef RWC_SNAPDATA_H
#define RWC_SNAPDATA_H

#include <stddef.h>
#include <stdint.h>

#include "base/ownmem.h"
#include "mapview/overlay.h"
#include "mapview/pagemap.h"

#define SNAP_CAP 131072u /* regions; vm.max_map_count defaults to 65530 */
#define BLOCK 4u /* regions per block of the two-level index: one cache line */
#define PROT_MASK 0xfffu /* a start is page-aligned: its low bits hold RWC_PROT_* */
#define PM_WORDS (1u << 20) /* the page map's memory: 8 MiB, touched as used */
#define NAMED_CAP 4096u /* named regions indexed (more: no unnamed runs) */

struct snap {
	unsigned seq;       /* odd while being written */
	uint64_t gen;       /* the generation it holds for */
	size_t n;
	int complete;       /* 0: more regions than SNAP_CAP, or a read error */
	                    /* (a full overlay sets gen to 0: stale) */
	unsigned novl;
	uintptr_t heap_hi;  /* where [heap] ends, overlay included; 0: none */
	struct rwc_pagemap pm; /* by page (pagemap.h); here, on the page every lookup reads */
	struct rwc_ovl ovl[RWC_OVL_CAP]; /* newest last (overlay.h) */
	size_t ntop;
	unsigned nnamed;    /* named[0..nnamed): the indexes of the regions with */
	int named_ok;       /* a name (a file, [heap], [vdso]...); 0: too many */
	uint32_t named[NAMED_CAP];
	uintptr_t top[SNAP_CAP / BLOCK]; /* the last end of each block of ent[] */
	struct {
		uintptr_t end;
		uintptr_t sp;                 /* start | prot */
	} ent[SNAP_CAP] __attribute__((aligned(64))); /* region i: [sp & ~PROT_MASK, end) */
	uint64_t pm_mem[PM_WORDS];
};

#define RWC_SNAP_SCAN_BUF 65536
/* The scan buffer (under the writer lock), then two snapshots, in the
 * library's own memory (the buffer near what a start touches, ownmem.c). */
static inline struct snap *snap_at(int i)
{
	return (struct snap *)((char *)rwc_ownmem_part(RWC_OWN_SNAP) + RWC_SNAP_SCAN_BUF) + i;
}
extern int rwc_snap_cur; /* the published snapshot, -1 none */
/* First index i < n with a[i] > x, or n.  Branch-free: random lookups
 * would mispredict every step of a branching search. */
static inline size_t rwc_snap_first_greater(const uintptr_t *a, size_t n, uintptr_t x)
{
	const uintptr_t *base = a;
	size_t len = n;

	if (n == 0)
		return 0;
	while (len > 1) {
		size_t half = len / 2;
		base += (size_t)(base[half - 1] <= x) * half;
		len -= half;
	}
	return (size_t)(base - a) + (*base <= x);
}

/* Index of the first region whose end is above LO (N if none): a search
 * of the top level, then a scan of one cache line of entries. */
static inline size_t rwc_snap_find(const struct snap *s, size_t n, size_t ntop, uintptr_t lo)
{
	size_t j = rwc_snap_first_greater(s->top, ntop, lo), k, e;

	if (j >= ntop)
		return n;
	k = j * BLOCK;
	e = k + BLOCK < n ? k + BLOCK : n;
	while (k < e && s->ent[k].end <= lo)
		k++;
	return k;
}

#endif
