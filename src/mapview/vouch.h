/* vouch.h: memory the map view can call good without asking the kernel,
 * where the program has not changed the map itself (mapnews.h
 * rwc_note_cut): what the loader mapped for a loaded module, and the
 * main thread's stack between the caller and its top.  Lock-free,
 * signal-safe, no system call, no allocation. */
#ifndef RWC_VOUCH_H
#define RWC_VOUCH_H

#include <stddef.h>
#include <stdint.h>

/* 1: [lo, lo+len) is mapped for NEED (enum rwc_need bits), and the
 * thread's cache (tcache.h) now holds it; 0: ask the kernel. */
int rwc_vouch(uintptr_t lo, size_t len, unsigned need);

/* The same as the pure rule, for tests: [lo, hi) in the segments PH[0..
 * PHNUM) of a module loaded at BIAS, pages of PG bytes: the needs those
 * segments serve there (0 where one segment does not hold it all, or
 * another one's pages meet it).  *RUN_LO, *RUN_HI: the segment's pages. */
unsigned rwc_vouch_segments(const void *ph, int phnum, uintptr_t bias, uintptr_t pg, uintptr_t lo, uintptr_t hi,
			    uintptr_t *run_lo, uintptr_t *run_hi);

#endif
