/* vouch.h: memory the map view can call good without asking the kernel,
 * where the program has not changed the map itself (mapnews.h
 * rwc_note_cut): what the loader mapped for a loaded module, and the
 * main thread's stack between the caller and its top.  Lock-free,
 * signal-safe, no system call, no allocation. */
#ifndef RWC_VOUCH_H
#define RWC_VOUCH_H

#include <stddef.h>
#include <stdint.h>

/* Nothing vouched for (RWCHECK_MAPS_QUERY=parse: every verdict from the
 * map the kernel writes). */
extern int rwc_vouch_off;

/* 1: [lo, lo+len) is mapped for NEED (enum rwc_need bits), and the
 * thread's cache (tcache.h) now holds it; 0: ask the kernel. */
int rwc_vouch(uintptr_t lo, size_t len, unsigned need);

#endif
