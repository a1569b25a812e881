/* guard.h: the per-thread reentrancy depth.  Nonzero while this thread is
 * inside the library: nested calls (the library's own I/O, libunwind,
 * libdw) go straight to the real function.  Initial-exec TLS: reading it
 * never allocates or locks. */
#ifndef RWC_GUARD_H
#define RWC_GUARD_H

extern __thread int rwc_depth __attribute__((tls_model("initial-exec")));

#endif
