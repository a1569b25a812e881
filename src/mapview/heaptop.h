/* heaptop.h: the program break, as the map view takes news of the heap's
 * growth (snapshot.c) and a free asks whether it moved (entry/mapwatch.h).
 * Signal-safe, no allocation. */
#ifndef RWC_HEAPTOP_H
#define RWC_HEAPTOP_H

#include <stdint.h>

/* The program break the map view last took news of (glibc's __curbrk
 * then); NULL since its last refresh. */
extern void *rwc_brk_seen;

/* While there is no map view: the program break at which a free that
 * unmaps nothing has nothing to tell (the first checks' fills, mapview.h,
 * know the heap up to it); NULL or a fill's token (a kernel address, new
 * at each fill) none; RWC_BRK_VIEW for good once the view took the break
 * (then rwc_brk_seen).  Set by a free's slow path with a compare-and-swap
 * from what it read before it looked, so a fill or the view that came in
 * between wins, whatever value it found (entry/mapwatch.c). */
extern void *rwc_brk_quiet;
#define RWC_BRK_VIEW ((void *)1)

/* At a refresh of the view (under its writer lock): the page end of the
 * program break (0 if unknown); no break taken since (rwc_brk_seen NULL:
 * the next free compares). */
uintptr_t rwc_heap_end_refreshed(void);

/* The heap's end now (the page end of the program break), the break kept
 * in rwc_brk_seen; called under the view's writer lock. */
uintptr_t rwc_heap_end_taken(void);

#endif
