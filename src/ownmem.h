/* ownmem.h: the library's own memory (perproc.h's per-process state in
 * wipe-on-fork pages, the snapshots, the report scratch), mapped at its
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

/* From the constructor: remember this process (a vfork child tells
 * itself from it) and keep that right in fork() children. */
void rwc_ownmem_start(void);

/* Maps the memory if nobody has yet.  1: mapped; 0: another thread (or
 * the interrupted one) is mapping it right now; -1: it could not be
 * mapped (the library goes on without its cached view).  errno kept. */
int rwc_ownmem_get(void);

/* 1 once mapped; never maps. */
int rwc_ownmem_ready(void);

/* 1 once the first need came (whatever came of it); never maps.  Before
 * that, nothing of the per-process state is used: nothing to read. */
int rwc_ownmem_used(void);

#endif
