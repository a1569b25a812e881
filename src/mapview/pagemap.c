/* pagemap.c: the page-permission radix tree (see pagemap.h).  Pure; no
 * allocation beyond the memory given; signal-safe for readers. */
#include "config.h"

#include "mapview/pagemap.h"

#include <string.h>

#define FAN 512u        /* entries of a directory */
#define LEAF_WORDS 16u  /* 512 pages x 2 bits */
#define LEVELS 3        /* directories above the leaves */
#define PAIRS 0x5555555555555555ull /* times 2 bits: those bits for each of 32 pages */

/* A directory entry: 0 nothing is good; odd: the whole granule has the
 * same bits ((ok << 1) | 1); even: the word index of the child node. */
static uint64_t uniform(unsigned ok)
{
	return ((uint64_t)ok << 1) | 1;
}

static unsigned gshift(const struct rwc_pagemap *m, int level)
{
	return m->shift + 9u * (unsigned)level; /* granule of an entry at LEVEL (0: a page) */
}

void rwc_pagemap_init(struct rwc_pagemap *m, uint64_t *mem, size_t cap_words, unsigned page_shift)
{
	m->mem = mem;
	m->cap = cap_words;
	m->shift = page_shift;
	m->ok = cap_words >= FAN;
	m->used = m->ok ? FAN : 0;
	if (m->ok)
		memset(mem, 0, FAN * sizeof *mem);
}

/* A child for an entry that was E: a copy of E all over. */
static int64_t child(struct rwc_pagemap *m, uint64_t e, int leaf)
{
	size_t words = leaf ? LEAF_WORDS : FAN, at = m->used;

	if (m->cap - m->used < words) {
		m->ok = 0;
		return -1;
	}
	m->used += words;
	if (leaf) {
		uint64_t w = e & 1 ? ((e >> 1) & 3) * PAIRS : 0; /* uniform: its 2 bits for every page */

		for (unsigned j = 0; j < LEAF_WORDS; j++)
			m->mem[at + j] = w;
	} else if (e == 0) { /* the usual case: a node below an empty entry */
		memset(&m->mem[at], 0, FAN * sizeof *m->mem);
	} else {
		for (unsigned j = 0; j < FAN; j++)
			m->mem[at + j] = e;
	}
	return (int64_t)at;
}

/* The 2 bits of OK for every page of [lo, hi) in the leaf at NODE (of the
 * 512 pages from BASE): whole 64-bit words of 32 pages at a time. */
static int set_leaf(struct rwc_pagemap *m, size_t node, uintptr_t base, uintptr_t lo, uintptr_t hi,
		    unsigned ok)
{
	unsigned j0 = (unsigned)((lo - base) >> m->shift), j1 = (unsigned)((hi - base) >> m->shift);
	uint64_t all = (uint64_t)(ok & 3) * PAIRS;

	for (unsigned w = j0 / 32; w <= (j1 - 1) / 32; w++) {
		unsigned a = w == j0 / 32 ? j0 % 32 : 0, b = w == (j1 - 1) / 32 ? (j1 - 1) % 32 + 1 : 32;
		uint64_t mask = b - a == 32 ? ~(uint64_t)0 : (((uint64_t)1 << (2 * (b - a))) - 1) << (2 * a);
		uint64_t *x = &m->mem[node + w];

		*x = (*x & ~mask) | (all & mask);
	}
	return 0;
}

static int set_dir(struct rwc_pagemap *m, int level, size_t node, uintptr_t base, uintptr_t lo,
		   uintptr_t hi, unsigned ok)
{
	unsigned gs = gshift(m, level);
	uintptr_t g = (uintptr_t)1 << gs;

	for (uintptr_t at = lo; at < hi;) {
		size_t i = (size_t)((at - base) >> gs);
		uintptr_t s = base + (uintptr_t)i * g, e = s + g;
		uintptr_t sub_hi = hi < e ? hi : e;
		uint64_t *ent = &m->mem[node + i];

		if (at == s && sub_hi == e) { /* a run of whole granules (inside this node) */
			size_t k = (size_t)((hi - at) >> gs);
			uint64_t u = uniform(ok);

			for (size_t j = 0; j < k; j++)
				ent[j] = u;
			sub_hi = at + ((uintptr_t)k << gs);
		} else {
			if (*ent == 0 || (*ent & 1)) {
				int64_t c = child(m, *ent, level == 1);
				if (c < 0)
					return -1;
				*ent = (uint64_t)c;
			}
			if (level == 1 ? set_leaf(m, (size_t)*ent, s, at, sub_hi, ok)
				       : set_dir(m, level - 1, (size_t)*ent, s, at, sub_hi, ok))
				return -1;
		}
		at = sub_hi;
	}
	return 0;
}

int rwc_pagemap_set(struct rwc_pagemap *m, uintptr_t lo, uintptr_t hi, unsigned ok)
{
	uintptr_t mask = ((uintptr_t)1 << m->shift) - 1;

	if (!m->ok)
		return -1;
	lo &= ~mask;
	hi = (hi + mask) & ~mask;
	if (hi > (uintptr_t)1 << gshift(m, LEVELS + 1))
		hi = (uintptr_t)1 << gshift(m, LEVELS + 1); /* beyond the tree: not kept */
	if (lo >= hi)
		return 0;
	return set_dir(m, LEVELS, 0, 0, lo, hi, ok);
}

int rwc_pagemap_good(const struct rwc_pagemap *m, uintptr_t lo, uintptr_t hi, unsigned need,
		     uintptr_t *glo, uintptr_t *ghi)
{
	uintptr_t top = (uintptr_t)1 << gshift(m, LEVELS + 1), mask = ((uintptr_t)1 << m->shift) - 1;

	if (!m->ok || hi > top || hi <= lo)
		return 0;
	*glo = lo & ~mask;
	*ghi = (hi + mask) & ~mask;
	for (uintptr_t at = lo; at < hi;) {
		size_t node = 0;
		int level = LEVELS;

		for (;;) {
			unsigned gs = gshift(m, level);
			uint64_t e = m->mem[node + ((at >> gs) & (FAN - 1))];

			if (e & 1) { /* a uniform granule */
				if ((((unsigned)e >> 1) & need) != need)
					return 0;
				at = ((at >> gs) + 1) << gs;
				break;
			}
			if (e == 0 || e >= m->cap)
				return 0;
			node = (size_t)e;
			if (--level == 0) { /* a leaf: its pages */
				unsigned j = (unsigned)((at >> m->shift) & (FAN - 1));
				if ((((unsigned)(m->mem[node + j / 32] >> (2 * (j % 32)))) & need) != need)
					return 0;
				at = ((at >> m->shift) + 1) << m->shift;
				break;
			}
		}
	}
	return 1;
}
