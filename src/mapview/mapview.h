/* mapview.h: the library's view of this process's memory map, and range
 * verdicts against it.  Signal-safe and lock-free for readers; allocates
 * only with mmap (never malloc). */
#ifndef RWC_MAPVIEW_H
#define RWC_MAPVIEW_H

#include "base/checks.h"

/* Verdict on [lo, lo+len) needing NEED.  A good verdict may come from the
 * cached snapshot; a bad one is always confirmed against a fresh read of
 * the kernel's map and, when it stands, comes with the mappings around the
 * bad bytes described.  Returns RWC_OK or the problem (also in v). */
enum rwc_problem rwc_map_verdict(uintptr_t lo, size_t len, unsigned need, struct rwc_verdict *v);
/* The same, resumed from what is KNOWN of the range in the current
 * generation: 1 the thread's cache or the snapshot found it good (then
 * RWC_OK at once), 0 the cache did not hold it (not asked again), -1
 * nothing (rwc_map_verdict). */
enum rwc_problem rwc_map_verdict_from(uintptr_t lo, size_t len, unsigned need, int known, struct rwc_verdict *v);

/* Around one check (entry/call.c, not nested: the entry's depth guard):
 * a process's first checks ask the kernel for single mappings, and those
 * of one check share one descriptor of /proc/self/maps, closed at its end. */
void rwc_map_session_begin(void);
void rwc_map_session_end(void);

/* After a free or realloc before the library's first need (entry/
 * mapwatch.c, which then tells the view nothing): where the first checks'
 * queries put ranges in threads' caches, a block the free UNMAPPED or a
 * program break that moved (a trim) moves the generation, so no cache
 * keeps memory given back. */
void rwc_map_light_freed(int unmapped);

/* A process's first verdicts made without its snapshot (the kernel asked
 * for one mapping, or a range vouched for: vouch.h, bounds.h
 * rwc_bounds_vouch): 1 while the budget lasts; spend() counts one. */
int rwc_map_light_left(void);
void rwc_map_light_spend(void);

/* Before a thread's cache takes a run of the heap that no query found
 * (bounds.c rwc_bounds_vouch): from now on a free that unmaps or moves
 * the break moves the generation, as after the first checks' queries;
 * returns the break, up to which the run may go.  After the fill,
 * rwc_map_light_filled(that break): a break moved meanwhile empties every
 * thread's cache. */
uintptr_t rwc_map_light_heap(void);
void rwc_map_light_filled(uintptr_t brk);

/* Test hooks (used by unit tests and by RWCHECK_MAPS_QUERY): force the
 * fallback parser instead of ioctl(PROCMAP_QUERY). */
void rwc_map_disable_procmap_query(void);

#endif
