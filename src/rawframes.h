/* rawframes.h: what a report can say about its frames without loading
 * libraries or allocating: the module of each address and the offset in
 * it, from a fresh parse of /proc/self/maps.  Async-signal-safe. */
#ifndef RWC_RAWFRAMES_H
#define RWC_RAWFRAMES_H

#include "symbolize.h"

void rwc_raw_modules(struct rwc_frame *fr, int n);

/* 1 when the report may be running inside a signal handler: a signal that
 * has a handler is blocked in this thread (as it is while its handler
 * runs).  Errs on the side of yes.  Async-signal-safe. */
int rwc_maybe_in_handler(void);

#endif
