/* snapshot.h: the cached map view: a sorted snapshot of /proc/self/maps
 * plus an overlay of the changes the library made or saw since (its
 * interposed mmap, munmap, mprotect, free of an mmapped block), under one
 * generation number.  Readers are lock-free and signal-safe; one writer at
 * a time through a try-lock; its memory is a part of the library's own
 * (ownmem.h), mapped at first need. */
#ifndef RWC_SNAPSHOT_H
#define RWC_SNAPSHOT_H

#include "base/checks.h"

/* The map may have changed: the snapshot is stale.  Lock-free, async-
 * signal-safe, leaves errno alone. */
void rwc_map_changed(void);

/* Regions from which a snapshot builds its page map; below, its regions
 * are searched (a few more loads, while each page of the map's directories
 * costs a process start a page fault: a usual process has 20-60 regions,
 * its map 6-8 directory pages).  Tests set 0 or SIZE_MAX. */
extern size_t rwc_snap_pm_min;

/* A report holds a gap with a placeholder mapping [lo, hi) (shared,
 * PROT_NONE): verdicts treat it as the gap it stands for. */
void rwc_map_hide(uintptr_t lo, uintptr_t hi);

/* Verdict from the cached view: RWC_OK (with *gen the generation it holds
 * for), a problem (to be confirmed by the kernel), or -1 when the view
 * cannot answer (no /proc, busy, too many mappings). */
int rwc_snap_verdict(struct rwc_verdict *v, uintptr_t lo, size_t len, unsigned need);

/* The run [*lo, *hi) around A between the nearest regions with a name
 * (a file, [heap], [stack], [vdso]...) below and above it, from the
 * snapshot current for generation G: 1, or 0 when A lies in a named
 * region or no such snapshot says.  No module's image lies wholly in the
 * run (each maps its file); one that reaches into it holds *lo or *hi - 1.
 * Lock-free, async-signal-safe. */
int rwc_snap_unnamed_run(uint64_t g, uintptr_t a, uintptr_t *lo, uintptr_t *hi);

/* [lo, hi) is now mapped with PROT (RWC_PROT_* bits), or unmapped if PROT
 * is -1: exact news from a call that succeeded.  Falls back to
 * rwc_map_changed() when it cannot record it. */
void rwc_snap_set(uintptr_t lo, uintptr_t hi, int prot);

/* The heap ([heap] in the map) now ends at the program break (read here,
 * under the writer lock, and kept in rwc_brk_seen): news of its growth,
 * or rwc_map_changed() for a trim, a heap it did not know, or a growth
 * over ranges the overlay holds news of. */
void rwc_snap_heap_top(void);

/* Is this mapping the placeholder of a report (see rwc_map_hide): the
 * last placeholder's range, ---s?  The range stays remembered after the
 * placeholder is gone, because a map read that began while it existed may
 * still be parsed afterwards. */
int rwc_snap_hidden(uintptr_t start, uintptr_t end, unsigned prot);

#endif
