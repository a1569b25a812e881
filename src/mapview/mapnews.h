/* mapnews.h: what a successful or failed map-changing call tells the map
 * view: the libc wrappers and syscall() (entry), and the library's own
 * mappings (ownmap.h).  Signal-safe. */
#ifndef RWC_MAPNEWS_H
#define RWC_MAPNEWS_H

#include <stddef.h>
#include <stdint.h>

void rwc_watch_mmap(void *result, size_t len, int prot, int flags);
void rwc_watch_munmap(void *addr, size_t len, int failed);
void rwc_watch_mprotect(void *addr, size_t len, int prot, int failed);
/* The program break moved (malloc grew or trimmed the heap): a growth past
 * the heap the view knows is exact news (the heap is [start, break)
 * rounded up to pages, read and write); a trim marks it stale.  The break
 * is read under the view's writer lock. */
void rwc_watch_brk(void);

/* 1 once the program (through the exported functions, also from a
 * signal handler that interrupted the library) asked for memory
 * other than readable and writable over what may be mapped already
 * (mprotect, mmap MAP_FIXED, a fixed mremap or shmat, their syscall()
 * numbers): until then every block glibc hands out is readable and
 * writable, so a new block enters the verdict cache without a look at the
 * map (allocrec.c).  Set by rwc_note_prot_cut(PROT), before the call. */
extern int rwc_prot_cut;
void rwc_note_prot_cut(int prot);

/* The span of every range the program itself changed (munmap, mprotect,
 * mremap, mmap MAP_FIXED, shmat, shmdt, brk, their syscall() numbers:
 * the entry points, before the call), in 64 KiB
 * units; (0, UINTPTR_MAX) for a change whose range is not known.  What
 * the loader mapped and glibc's malloc handed out is as it was outside
 * it (vouch.h). */
void rwc_note_cut(uintptr_t lo, size_t len);
/* Whether [lo, hi) meets that span. */
int rwc_cut_touches(uintptr_t lo, uintptr_t hi);

#endif
