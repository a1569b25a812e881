/* probe.h: the kernel's own answer whether bytes of this process can be
 * read now, by copying them with process_vm_readv on the process itself
 * (a fault is an error, never a signal).  For memory the map view may
 * call readable while it is not (glibc's internal munmaps; a view that
 * could not read the map says yes to everything), where a wrong yes
 * would fault in the program.  Signal-safe; keeps errno; no allocation. */
#ifndef RWC_PROBE_H
#define RWC_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* Copies the N bytes at SRC into DST: 1 done; 0 they are not all
 * readable; -1 the kernel would not say (process_vm_readv refused: a
 * seccomp filter, no such call). */
int rwc_probe_read(void *dst, uintptr_t src, size_t n);

#endif
