/* depot.c: the trace depot (see depot.h). */
#include "config.h"

#include "bounds/depot.h"

#include <errno.h>
#include <sys/mman.h>

#include "mapview/ownmap.h"
#include "base/real.h"

#define SLOTS (1u << 16) /* power of two */
#define PROBES 64

struct slot {
	uint32_t state; /* 0 free, 1 being written, 2 published */
	uint32_t hash;
	uint32_t n;
	uintptr_t pcs[RWC_DEPOT_FRAMES];
};

static struct slot *table; /* SLOTS slots, mapped on first use */
static int table_state;    /* 0 none, 1 mapping, 2 ready, -1 failed */

static struct slot *get_table(void)
{
	return rwc_own_map_once((void **)&table, &table_state, SLOTS * sizeof(struct slot));
}

static uint32_t hash(const uintptr_t *pcs, int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;

	for (int i = 0; i < n; i++) {
		h ^= pcs[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return (uint32_t)h | 1u;
}

static int same(const struct slot *s, const uintptr_t *pcs, int n)
{
	if (s->n != (uint32_t)n)
		return 0;
	for (int i = 0; i < n; i++)
		if (s->pcs[i] != pcs[i])
			return 0;
	return 1;
}

uint32_t rwc_depot_put(const uintptr_t *pcs, int n)
{
	struct slot *t = get_table();
	uint32_t h;

	if (!t || n <= 0)
		return 0;
	if (n > RWC_DEPOT_FRAMES)
		n = RWC_DEPOT_FRAMES;
	h = hash(pcs, n);
	for (uint32_t i = 0; i < PROBES; i++) {
		struct slot *s = &t[(h + i) & (SLOTS - 1)];
		uint32_t st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

		if (st == 0) {
			if (!__atomic_compare_exchange_n(&s->state, &st, 1, 0, __ATOMIC_ACQ_REL,
							 __ATOMIC_ACQUIRE))
				continue;
			s->hash = h;
			s->n = (uint32_t)n;
			for (int k = 0; k < n; k++)
				s->pcs[k] = pcs[k];
			__atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
			return ((h + i) & (SLOTS - 1)) + 1;
		}
		if (st == 2 && s->hash == h && same(s, pcs, n))
			return ((h + i) & (SLOTS - 1)) + 1;
	}
	return 0;
}

int rwc_depot_get(uint32_t id, uintptr_t *pcs)
{
	const struct slot *s;
	int n;

	if (!id || id > SLOTS || __atomic_load_n(&table_state, __ATOMIC_ACQUIRE) != 2)
		return 0;
	s = &table[id - 1];
	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != 2)
		return 0;
	n = (int)s->n;
	for (int i = 0; i < n; i++)
		pcs[i] = s->pcs[i];
	return n;
}
