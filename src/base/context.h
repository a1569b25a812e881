/* context.h: may this thread load libraries, take the library's locks or
 * allocate now?  And the lock that serializes the library's use of
 * libunwind and libdw (the reports and the stack check).  Async-signal-
 * safe; allocates nothing.  (The depth of guard.h is defined in context.c.) */
#ifndef RWC_CONTEXT_H
#define RWC_CONTEXT_H

/* 1 when the caller may be running inside a signal handler: a signal that
 * has a handler is blocked in this thread (as it is while its handler
 * runs).  Errs on the side of yes. */
int rwc_maybe_in_handler(void);

/* The libunwind/libdw lock (the report lock), unless this is a child
 * forked while a thread of its parent held it (that holder never comes
 * back, and libunwind's and libdw's state may be half-changed) or this
 * thread holds it already (a handler).  1 when taken: then
 * rwc_libs_unlock. */
int rwc_libs_lock(void);
void rwc_libs_unlock(void);

/* The same lock, for loading or running a library (libdw, libelf) on a
 * thread that may: not a signal handler (its stack may be a small
 * alternate one, and the loader's lock may be held under it), not a
 * vfork child (it shares the parent's memory), and with the library's
 * own memory at hand.  1 when taken: then rwc_load_unlock. */
int rwc_load_lock(void);
void rwc_load_unlock(void);

/* 1 when the program's malloc is another allocator's, loaded before this
 * library: what libdw allocates then goes to that allocator (not to the
 * library's own heap), which may be the one whose lock this thread holds
 * (jemalloc reads files in its own init).  Set once at init. */
extern int rwc_foreign_malloc_first;


#endif
