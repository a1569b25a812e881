/* pagesize.h: the page size, asked once. */
#ifndef RWC_PAGESIZE_H
#define RWC_PAGESIZE_H

#include <stdint.h>

/* The kernel's word from the auxiliary vector (sysconf as a fallback):
 * signal-safe, no system call after the first. */
uintptr_t rwc_page_size(void);

#endif
