/* mapnews.h: what a successful or failed map-changing call tells the map
 * view: the libc wrappers and syscall() (entry), and the library's own
 * mappings (ownmap.h).  Signal-safe. */
#ifndef RWC_MAPNEWS_H
#define RWC_MAPNEWS_H

#include <stddef.h>

void rwc_watch_mmap(void *result, size_t len, int prot, int flags);
void rwc_watch_munmap(void *addr, size_t len, int failed);
void rwc_watch_mprotect(void *addr, size_t len, int prot, int failed);
/* The program break moved (malloc grew or trimmed the heap): a growth past
 * the heap the view knows is exact news (the heap is [start, break)
 * rounded up to pages, read and write); a trim marks it stale.  The break
 * is read under the view's writer lock. */
void rwc_watch_brk(void);

#endif
