/* sites.c: the site table (see sites.h): open addressing over the keys,
 * slot 0 never used (id 0 means none), in .bss (pages touched as used;
 * no mapping at start); the probing path of rwc_site_id (sites.h has the
 * first-slot look).  A key is probed for in its first slot's page, then,
 * when every probe there is taken, in a sequence over the whole table
 * (slots are never freed: a key put there finds its page's probes taken
 * again at every later look). */
#include "config.h"

#include "bounds/sites.h"

#include "base/common.h"

#define PROBES 32

uintptr_t rwc_site_table[RWC_SITE_SLOTS]; /* keys; 0: a free slot */
uint64_t rwc_site_pages RWC_START_DATA;
__thread uint64_t rwc_site_memo[RWC_SITE_MEMO] __attribute__((tls_model("initial-exec")));

/* KEY's slot among the probes at FIRST + i * STEP (i < PROBES, the index
 * kept within MASK + 1 slots from BASE): found or claimed; 0 none free. */
static uint32_t probe(uintptr_t key, uint32_t base, uint32_t first, uint32_t step, uint32_t mask)
{
	uintptr_t *t = rwc_site_table;

	for (uint32_t i = 0; i < PROBES; i++) {
		uint32_t at = base + ((first + i * step) & mask);
		uintptr_t k;

		if (at == 0)
			continue;
		if (!(__atomic_load_n(&rwc_site_pages, __ATOMIC_ACQUIRE) & RWC_SITE_MARK(at))) {
			/* the page's first access a write: claim, else read what
			 * the failed exchange saw */
			k = 0;
			if (__atomic_compare_exchange_n(&t[at], &k, key, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				k = key;
			__atomic_fetch_or(&rwc_site_pages, RWC_SITE_MARK(at), __ATOMIC_RELEASE);
			if (k == key)
				return at;
			continue;
		}
		k = __atomic_load_n(&t[at], __ATOMIC_ACQUIRE);
		if (k == key)
			return at;
		if (k == 0 && (__atomic_compare_exchange_n(&t[at], &k, key, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
			       k == key))
			return at;
	}
	return 0;
}

uint32_t rwc_site_id_slow(uintptr_t key)
{
	uint32_t s = rwc_site_slot(key) & (RWC_SITE_SLOTS - 1), at;
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	if (!key)
		return 0;
	at = probe(key, s - s % RWC_SITE_PAGE, s % RWC_SITE_PAGE, 1, RWC_SITE_PAGE - 1);
	/* then a probe on each of other pages (a full page is one of 32) */
	return at ? at : probe(key, 0, (uint32_t)(h ^ (h >> 29)), RWC_SITE_PAGE + 1, RWC_SITE_SLOTS - 1);
}

uintptr_t rwc_site_key(uint32_t id)
{
	if (!id || id >= RWC_SITE_SLOTS)
		return 0;
	return __atomic_load_n(&rwc_site_table[id], __ATOMIC_ACQUIRE);
}

