/* heaptop.h: the program break, as the map view takes news of the heap's
 * growth (snapshot.c) and a free asks whether it moved (entry/mapwatch.h).
 * Signal-safe, no allocation. */
#ifndef RWC_HEAPTOP_H
#define RWC_HEAPTOP_H

#include <stdint.h>

/* The program break the map view last took news of (glibc's __curbrk
 * then); NULL since its last refresh. */
extern void *rwc_brk_seen;

/* At a refresh of the view (under its writer lock): the page end of the
 * program break (0 if unknown); no break taken since (rwc_brk_seen NULL:
 * the next free compares). */
uintptr_t rwc_heap_end_refreshed(void);

/* The heap's end now (the page end of the program break), the break kept
 * in rwc_brk_seen; called under the view's writer lock. */
uintptr_t rwc_heap_end_taken(void);

#endif
