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

/* Where the main thread's stack starts (the loader's __libc_stack_end;
 * above it only argv, the environment and the aux vector) when SP is on
 * it, else 0 (a thread's stack, a signal stack, a coroutine's): SP within
 * 64 MiB below it, where no other mapping lies. */
uintptr_t rwc_main_stack_top(uintptr_t sp);

/* 1: [lo, lo+len) is mapped for NEED (enum rwc_need bits), and the
 * thread's cache (tcache.h) now holds it; 0: ask the kernel. */
int rwc_vouch(uintptr_t lo, size_t len, unsigned need);

#endif
