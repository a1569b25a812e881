/* ownmem.h: the library's own memory (perproc.h's per-process state in
 * wipe-on-fork pages, the snapshots, the report scratch, the globals'
 * objects, the library's stack), mapped at its
 * first need instead of in the constructor: a process that never makes a
 * checked call or a hole (most short-lived processes of a build) never
 * pays for it.  Its first need is the first check that reads the map, the
 * first report, and — before the real call — every interposed call that
 * can leave a hole the mapping could otherwise land in (munmap, mremap,
 * shmdt, dlclose, brk, free of an mmapped block, their syscall()
 * numbers).  Signal-safe: a caller that finds another thread (or the
 * thread it interrupted) mapping it never waits, it goes on without. */
#ifndef RWC_OWNMEM_H
#define RWC_OWNMEM_H

#include <stddef.h>

/* The parts of the memory after the per-process pages, one per client,
 * in this order.  Their sizes are fixed here (page multiples: the parts
 * stay page-aligned); each client checks at compile time that what it
 * keeps in its part fits. */
enum rwc_own_part {
	RWC_OWN_SNAP,   /* snapshot.c: two snapshots and the maps scan buffer */
	RWC_OWN_REPORT, /* report.c: the report scratch */
	RWC_OWN_GLOBALS, /* elfobjs.c: the modules' objects, and room to read them */
	RWC_OWN_STACK,  /* frames/ownstack.c: the stack of the library's deep work */
	RWC_OWN_NPARTS
};
#define RWC_OWN_SNAP_SIZE ((size_t)0x14a1000)
#define RWC_OWN_REPORT_SIZE ((size_t)0x50000)
#define RWC_OWN_GLOBALS_SIZE ((size_t)0x400000)
#define RWC_OWN_STACK_SIZE ((size_t)0x100000)

/* Where each part starts once the memory is mapped (rwc_ownmem_get()
 * returned 1, or rwc_ownmem_ready()); NULL before, and for good where it
 * could not be mapped. */
extern void *rwc_own_parts[RWC_OWN_NPARTS];
static inline void *rwc_ownmem_part(enum rwc_own_part part)
{
	return rwc_own_parts[part];
}

/* From the constructor: remember this process (a vfork child tells
 * itself from it). */
void rwc_ownmem_start(void);
/* In a fork() child, before the program goes on: this process is the
 * one to remember now (entry/fork.c). */
void rwc_ownmem_forked(void);

/* Maps the memory if nobody has yet.  1: mapped; 0: another thread (or
 * the interrupted one) is mapping it right now; -1: it could not be
 * mapped (the library goes on without its cached view).  errno kept. */
int rwc_ownmem_get(void);

/* 1 in a vfork() child, which runs in its parent's memory until it execs
 * or exits: it must not take the parent's locks, load libraries or
 * allocate.  A fork() child finds the per-process state's owner 0 (wiped)
 * and claims it (ownmem.c says how a claimer tells whether it is a vfork
 * child). */
int rwc_in_vfork_child(void);

/* 1 once mapped; never maps. */
int rwc_ownmem_ready(void);

/* 1 once the first need came (whatever came of it); never maps.  Before
 * that, nothing of the per-process state is used: nothing to read. */
int rwc_ownmem_used(void);

#endif
