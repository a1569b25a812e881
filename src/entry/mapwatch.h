/* mapwatch.h: what freeing a malloc block unmaps (mapwatch.c, for
 * malloc.c and freeq.c).  The map-change news itself: mapview/mapnews.h.
 * Signal-safe. */
#ifndef RWC_MAPWATCH_H
#define RWC_MAPWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "mapview/heaptop.h"
#include "mapview/mapnews.h"

/* A call through the exported functions changes [ADDR, ADDR+LEN)
 * (mapnews.h rwc_note_cut; LEN SIZE_MAX: from ADDR up); before the call.
 * Also inside the library (rwc_depth): a signal handler's call there is
 * the program's (the library's own calls go to the real functions); a
 * note too many costs speed only. */
static inline void rwc_watch_cut(const void *addr, size_t len)
{
	rwc_note_cut((uintptr_t)addr, len);
}

/* The same for a call that may also leave memory there other than
 * readable and writable as PROT says (mapnews.h rwc_prot_cut). */
static inline void rwc_watch_change(const void *addr, size_t len, int prot)
{
	rwc_note_prot_cut(prot);
	rwc_note_cut((uintptr_t)addr, len);
}
#define RWC_CUT_ALL() rwc_watch_cut(NULL, SIZE_MAX)

/* What freeing the malloc block P unmaps: 1 and the exact range for a
 * block glibc malloc served with mmap (from its chunk header); 0 for other
 * blocks; -1 when unknown (another allocator).  Call before the free. */
int rwc_watch_chunk(void *p, uintptr_t *lo, uintptr_t *hi);
/* After free/realloc (M from rwc_watch_chunk; MOVED: the block may have
 * been mremapped): records the unmapped block, or marks the view stale.
 * Inline: the common free, nothing unmapped and the heap top where the
 * view (or, before there is one, the last free: heaptop.h rwc_brk_quiet)
 * saw it, costs two or three loads. */
void rwc_watch_freed_slow(int m, uintptr_t lo, uintptr_t hi, int moved);
extern void *__curbrk;
static inline void rwc_watch_freed(int m, uintptr_t lo, uintptr_t hi, int moved)
{
	void *b = __atomic_load_n(&__curbrk, __ATOMIC_RELAXED);

	if (m == 0 && (b == __atomic_load_n(&rwc_brk_seen, __ATOMIC_RELAXED) ||
		       b == __atomic_load_n(&rwc_brk_quiet, __ATOMIC_ACQUIRE)))
		return;
	rwc_watch_freed_slow(m, lo, hi, moved);
}

#endif
