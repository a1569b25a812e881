/* ownmap.h: the library's own mappings (the heap map's leaves, the trace
 * depot, the own heap's regions): mapped with the real mmap and told to
 * the map view in one step.  Signal-safe, no allocation. */
#ifndef RWC_OWNMAP_H
#define RWC_OWNMAP_H

#include <stddef.h>

#include "base/common.h"

/* LEN bytes of private anonymous read-write memory (MAP_NORESERVE: pages
 * cost only when touched), known to the view; NULL when the kernel
 * refuses.  Leaves errno alone. */
void *rwc_own_mmap(size_t len);

/* Gives back LEN bytes at P from rwc_own_mmap, and tells the view. */
void rwc_own_munmap(void *p, size_t len);

/* A table of LEN bytes the library maps once, at its first need: *TABLE
 * once *STATE is 2 (0 none, 1 being mapped, 2 ready, -1 failed for good);
 * NULL while another thread maps it, or without memory. */
static inline void *rwc_own_map_once(void **table, int *state, size_t len)
{
	int s = __atomic_load_n(state, __ATOMIC_ACQUIRE);
	void *p;

	if (RWC_LIKELY(s == 2))
		return *table;
	if (s != 0 || !__atomic_compare_exchange_n(state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return NULL;
	p = rwc_own_mmap(len);
	if (!p) {
		__atomic_store_n(state, -1, __ATOMIC_RELEASE);
		return NULL;
	}
	*table = p;
	__atomic_store_n(state, 2, __ATOMIC_RELEASE);
	return p;
}

#endif
