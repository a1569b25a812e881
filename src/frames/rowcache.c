/* rowcache.c: the table of recent CFI rows (see rowcache.h).  An entry
 * holds a row in a compact form (offsets in 32 bits); its count is odd
 * while it is written; a reader copies the entry and keeps the copy only
 * if the count did not move (a sequence lock per entry). */
#include "config.h"

#include "frames/rowcache.h"

#include <string.h>

#define NENT 1024 /* a power of two; 56 KiB of zero pages until used */

static const unsigned char followed[RWC_ROW_FOLLOWED] = RWC_ROW_FOLLOWED_REGS;

struct ent { /* 56 bytes */
	unsigned seq; /* odd: being written */
	int16_t cfa_reg;
	unsigned char rule[RWC_ROW_FOLLOWED];
	uintptr_t pc;
	int32_t cfa_off;
	int32_t off[RWC_ROW_FOLLOWED];
};

static struct ent table[NENT];

/* The first of the two entries PC may take (two ways: two pcs that hash
 * alike on one walk do not evict each other each time). */
static struct ent *set_of(uintptr_t pc)
{
	uintptr_t h = pc * 0x9E3779B97F4A7C15ull;

	return &table[(h >> 40) & (NENT - 2)];
}

/* A consistent copy of E for PC: 1, or 0 (another pc, empty, being written). */
static int read_ent(const struct ent *e, uintptr_t pc, struct ent *c)
{
	unsigned s = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);

	if ((s & 1) || !s)
		return 0;
	memcpy(c, e, sizeof *c);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&e->seq, __ATOMIC_RELAXED) == s && c->pc == pc;
}

int rwc_rowcache_get(uintptr_t pc, struct rwc_cfi_row *row)
{
	const struct ent *e = set_of(pc);
	struct ent c;

	if (!read_ent(e, pc, &c) && !read_ent(e + 1, pc, &c))
		return 0;
	row->cfa_reg = c.cfa_reg;
	row->cfa_off = c.cfa_off;
	row->signal = 0;
	for (int k = 0; k < RWC_ROW_FOLLOWED; k++)
		row->rule[followed[k]] = c.rule[k], row->off[followed[k]] = c.off[k];
	return 1;
}

/* Does ROW fit the compact form? */
static int fits(const struct rwc_cfi_row *row)
{
	if (row->signal || row->cfa_reg < -1 || row->cfa_reg > 127 || row->cfa_off != (int32_t)row->cfa_off)
		return 0;
	for (int k = 0; k < RWC_ROW_FOLLOWED; k++)
		if (row->off[followed[k]] != (int32_t)row->off[followed[k]])
			return 0;
	return 1;
}

void rwc_rowcache_put(uintptr_t pc, const struct rwc_cfi_row *row)
{
	struct ent *e = set_of(pc);
	unsigned s;

	/* an empty way first, else the one the pc's bit picks */
	if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) && (!__atomic_load_n(&e[1].seq, __ATOMIC_RELAXED) || (pc >> 4) & 1))
		e++;
	s = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);

	if ((s & 1) || !fits(row) || !__atomic_compare_exchange_n(&e->seq, &s, s + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	e->pc = pc;
	e->cfa_reg = (int16_t)row->cfa_reg;
	e->cfa_off = (int32_t)row->cfa_off;
	for (int k = 0; k < RWC_ROW_FOLLOWED; k++)
		e->rule[k] = row->rule[followed[k]], e->off[k] = (int32_t)row->off[followed[k]];
	__atomic_store_n(&e->seq, s + 2, __ATOMIC_RELEASE);
}
