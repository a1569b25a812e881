/* mapwatch.h: what a successful or failed map-changing call tells the map
 * view (shared by the libc wrappers and syscall()).  Signal-safe. */
#ifndef RWC_MAPWATCH_H
#define RWC_MAPWATCH_H

#include <stddef.h>

void rwc_watch_mmap(void *result, size_t len, int prot, int flags);
void rwc_watch_munmap(void *addr, size_t len, int failed);
void rwc_watch_mprotect(void *addr, size_t len, int prot, int failed);

#endif
