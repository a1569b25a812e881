/* sites.h: the call sites of malloc & co. and free, each kept once.  A
 * site is a key — the caller's return address, or a trace id of depot.h
 * tagged RWC_HM_TRACE — and gets a 16-bit id that the heap map keeps per
 * block (two per block: where it was allocated, where it was freed).
 * Programs have a few thousand such sites; the table holds RWC_SITE_SLOTS - 1
 * of them, and a site that finds it full gets id 0 (unknown).
 * Lock-free (a slot is claimed by a compare-and-swap of its key), no
 * allocation after the table's one mapping, signal-safe. */
#ifndef RWC_SITES_H
#define RWC_SITES_H

#include <stdint.h>

#define RWC_SITE_SLOTS (1u << 14) /* slots: 128 KiB, touched as used */

/* The id of site KEY (nonzero), 0 when it cannot be kept. */
uint32_t rwc_site_id(uintptr_t key);
/* Maps the table now (the constructor: before the program can make the
 * holes a later first-use mapping could land in). */
void rwc_sites_prepare(void);
/* The key of site ID, 0 for 0 or an unknown id. */
uintptr_t rwc_site_key(uint32_t id);

#endif
