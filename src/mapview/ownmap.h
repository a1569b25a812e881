/* ownmap.h: the library's own mappings (the heap map's leaves, the trace
 * depot, the own heap's regions): mapped with the real mmap and told to
 * the map view in one step.  Signal-safe, no allocation. */
#ifndef RWC_OWNMAP_H
#define RWC_OWNMAP_H

#include <stddef.h>

/* LEN bytes of private anonymous read-write memory (MAP_NORESERVE: pages
 * cost only when touched), known to the view; NULL when the kernel
 * refuses.  Leaves errno alone. */
void *rwc_own_mmap(size_t len);

/* Gives back LEN bytes at P from rwc_own_mmap, and tells the view. */
void rwc_own_munmap(void *p, size_t len);

#endif
