/* mapwatch.h: what freeing a malloc block unmaps (mapwatch.c, for
 * malloc.c and freeq.c).  The map-change news itself: mapview/mapnews.h.
 * Signal-safe. */
#ifndef RWC_MAPWATCH_H
#define RWC_MAPWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "mapview/heaptop.h"
#include "mapview/mapnews.h"

/* 1 once the program itself (not the library: rwc_depth) asked for memory
 * other than readable and writable over what may be mapped already
 * (mprotect, mmap MAP_FIXED, a fixed mremap or shmat, their syscall()
 * numbers): until then every block glibc hands out is readable and
 * writable, so a new block enters the verdict cache without a look at the
 * map (allocrec.c).  Set by rwc_note_prot_cut(PROT), before the call. */
extern int rwc_prot_cut;
void rwc_note_prot_cut(int prot);

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
static inline void rwc_watch_freed(int m, uintptr_t lo, uintptr_t hi, int moved)
{
	if (m == 0 && __atomic_load_n(&__curbrk, __ATOMIC_RELAXED) ==
			      __atomic_load_n(&rwc_brk_seen, __ATOMIC_RELAXED))
		return;
	rwc_watch_freed_slow(m, lo, hi, moved);
}

#endif
