/* gobjs.h: a module's data objects as a table sorted by address (elfobjs.h
 * fills it from the ELF file, globals.c looks buffers up in it).  Pure:
 * the unit tests call these directly. */
#ifndef RWC_GOBJS_H
#define RWC_GOBJS_H

#include <stddef.h>
#include <stdint.h>

/* One object at its run-time address: [lo, hi).  NAME: the name, or
 * where it is when tagged with RWC_GOBJ_OFFSET (elfobjs.h). */
struct rwc_gobj {
	uintptr_t lo, hi;
	const char *name;
};
#define RWC_GOBJ_OFFSET ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/* Sorts O[0..n) by address (at one address, the larger object first) and
 * merges: an object inside the one before it (an alias) goes, one that
 * overlaps it widens it (no object is judged smaller than any symbol
 * covering it says); the kept one keeps its name.  Returns the count
 * kept, O[0..count) sorted and disjoint.  Allocates nothing. */
size_t rwc_gobj_sort_merge(struct rwc_gobj *o, size_t n);
/* The same with the quicksort's depth limit DEPTH (0: heapsort only);
 * rwc_gobj_sort_merge's is twice log2(n). */
size_t rwc_gobj_sort_merge_depth(struct rwc_gobj *o, size_t n, int depth);

/* The index of the object that holds A in the sorted OBJ[0..n), or -1;
 * then [*gap_lo, *gap_hi) is the run without objects around A (clipped
 * to [start, end)).  Pure; async-signal-safe. */
long rwc_gobj_find(const struct rwc_gobj *obj, size_t n, uintptr_t a, uintptr_t start,
		   uintptr_t end, uintptr_t *gap_lo, uintptr_t *gap_hi);

#endif
