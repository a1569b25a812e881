/* rawframes.h: what a report can say about its frames without loading
 * libraries or allocating: the module of each address and the offset in
 * it, from a fresh parse of /proc/self/maps.  Async-signal-safe. */
#ifndef RWC_RAWFRAMES_H
#define RWC_RAWFRAMES_H

#include "frames/symbolize.h"

void rwc_raw_modules(struct rwc_frame *fr, int n);

#endif
