/* mapwatch.h: what freeing a malloc block unmaps (mapwatch.c, for
 * malloc.c), and what malloc.c tells the rest of the entry layer about
 * the allocator order.  The map-change news itself: mapview/mapnews.h.
 * Signal-safe. */
#ifndef RWC_MAPWATCH_H
#define RWC_MAPWATCH_H

#include <stddef.h>
#include <stdint.h>

/* What freeing the malloc block P unmaps: 1 and the exact range for a
 * block glibc malloc served with mmap (from its chunk header); 0 for other
 * blocks; -1 when unknown (another allocator).  Call before the free. */
int rwc_watch_chunk(void *p, uintptr_t *lo, uintptr_t *hi);
/* After free/realloc (M from rwc_watch_chunk; MOVED: the block may have
 * been mremapped): records the unmapped block, or marks the view stale.
 * Inline: the common free, nothing unmapped and the heap top where it
 * was, costs two loads. */
void rwc_watch_freed_slow(int m, uintptr_t lo, uintptr_t hi, int moved);
extern void *__curbrk;
extern void *rwc_watch_seen_brk; /* the heap top the view knows */
static inline void rwc_watch_freed(int m, uintptr_t lo, uintptr_t hi, int moved)
{
	if (m == 0 && __atomic_load_n(&__curbrk, __ATOMIC_RELAXED) ==
			      __atomic_load_n(&rwc_watch_seen_brk, __ATOMIC_RELAXED))
		return;
	rwc_watch_freed_slow(m, lo, hi, moved);
}

/* Is the next malloc glibc's own (malloc.c)?  1, 0, or -1 while not
 * known (malloc not bound yet). */
int rwc_malloc_is_glibc(void);
/* Loads the unwinder for allocation traces (RWCHECK_HEAP_ORIGINS above 1),
 * from the constructor. */
void rwc_malloc_trace_prepare(void);

/* Do the program's malloc calls come here, and go on to glibc's?  WHO:
 * the module of the other allocator ("" when not known). */
enum rwc_alloc_order {
	RWC_ALLOC_OURS,       /* this library's malloc first, then glibc's */
	RWC_ALLOC_OTHER_NEXT, /* this library's first, then another interposer */
	RWC_ALLOC_OTHER_FIRST /* another allocator before this library */
};
enum rwc_alloc_order rwc_malloc_order(const char **who);

/* Record blocks at all (0 once the heap check is off). */
extern int rwc_heap_track;

#endif
