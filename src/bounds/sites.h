/* sites.h: the call sites of malloc & co. and free, each kept once.  A
 * site is a key — the caller's return address, or a trace id of depot.h
 * tagged RWC_HM_TRACE — and gets a 16-bit id that the heap map keeps per
 * block (two per block: where it was allocated, where it was freed).
 * Programs have a few thousand such sites; the table holds RWC_SITE_SLOTS - 1
 * of them, and a site that finds it full gets id 0 (unknown).
 * Lock-free (a slot is claimed by a compare-and-swap of its key), no
 * allocation (the table is in .bss), signal-safe. */
#ifndef RWC_SITES_H
#define RWC_SITES_H

#include <stdint.h>

#include "base/common.h"

#define RWC_SITE_SLOTS (1u << 14) /* slots: 128 KiB, touched as used */
#define RWC_SITE_PAGE 512u         /* the slots of one 4 KiB page */

/* The table's keys (0: a free slot), in .bss. */
extern uintptr_t rwc_site_table[RWC_SITE_SLOTS];
/* Bit k: a key was written on the table's k-th 4 KiB page of memory
 * (the table is not page-aligned: it spans one more).  A slot of a page
 * without one is not read (the read of an untouched page maps the zero
 * page, and the claim's write after it is a second page fault): the
 * probing path claims there first. */
extern uint64_t rwc_site_pages;
_Static_assert(RWC_SITE_SLOTS * sizeof(uintptr_t) / 4096 + 1 <= 64, "a bit per page of the site table");
#define RWC_SITE_MARK(at) \
	(1ull << ((((uintptr_t)&rwc_site_table[(at)]) >> 12) - (((uintptr_t)rwc_site_table) >> 12)))

/* KEY's first slot; a key sits at its first slot unless that slot was
 * taken first (or is slot 0), then within the next probes of the same
 * page, then (that page's probes all taken) anywhere (sites.c).  The page
 * is chosen by the key's 16 MiB window: the sites of a program's code
 * share a page (a 1 MiB window put git's on 4 of them), the libraries
 * mapped beside each other another, so a process's sites touch a few of
 * the table's pages (each a page fault), not one page per site. */
static inline uint32_t rwc_site_slot(uintptr_t key)
{
	uint64_t w = (uint64_t)(key >> 24) * 0x9e3779b97f4a7c15ull;
	uint64_t h = (uint64_t)key * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(w >> 32) % (RWC_SITE_SLOTS / RWC_SITE_PAGE) * RWC_SITE_PAGE +
	       (uint32_t)(h ^ (h >> 29)) % RWC_SITE_PAGE;
}

uint32_t rwc_site_id_slow(uintptr_t key);

/* A thread's memo of the sites it asked for lately: KEY << 16 | its id,
 * in the slot KEY's low bits folded pick (call sites a few bytes apart,
 * a malloc and a free of one loop, get different slots; keys of 48 bits
 * and more are not kept: the table is asked).  One store: a signal handler
 * sees a whole entry. */
#define RWC_SITE_MEMO 8
extern __thread uint64_t rwc_site_memo[RWC_SITE_MEMO] __attribute__((tls_model("initial-exec")));

/* The id of site KEY (nonzero), 0 when it cannot be kept.  A site this
 * thread asked for lately costs a load and a compare; one found at its
 * first slot (a program's steady state) a multiply and a load; anything
 * else takes the probing path. */
static inline uint32_t rwc_site_id(uintptr_t key)
{
	uint64_t *m = &rwc_site_memo[(key ^ key >> 3 ^ key >> 6) & (RWC_SITE_MEMO - 1)];
	uint64_t w = __atomic_load_n(m, __ATOMIC_RELAXED);
	uint32_t at;

	if (RWC_LIKELY(w >> 16 == key)) /* (key 0: id 0, as the empty memo says) */
		return (uint32_t)(w & 0xffffu);
	at = rwc_site_slot(key) & (RWC_SITE_SLOTS - 1);
	if (!(RWC_LIKELY(key && at && (__atomic_load_n(&rwc_site_pages, __ATOMIC_ACQUIRE) & RWC_SITE_MARK(at)) &&
			 __atomic_load_n(&rwc_site_table[at], __ATOMIC_ACQUIRE) == key)))
		at = rwc_site_id_slow(key);
	if (at && key >> 48 == 0) /* (ids are never taken back: sites.c) */
		__atomic_store_n(m, (uint64_t)key << 16 | at, __ATOMIC_RELAXED);
	return at;
}
/* The key of site ID, 0 for 0 or an unknown id. */
uintptr_t rwc_site_key(uint32_t id);

#endif
