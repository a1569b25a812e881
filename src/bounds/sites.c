/* sites.c: the site table (see sites.h): open addressing over the keys,
 * slot 0 never used (id 0 means none), mapped on first use; the probing
 * path of rwc_site_id (sites.h has the first-slot look). */
#include "config.h"

#include "bounds/sites.h"

#include "base/common.h"
#include "mapview/ownmap.h"

#define PROBES 32

static uintptr_t *table RWC_START_DATA; /* RWC_SITE_SLOTS keys; 0: a free slot */
static int table_state RWC_START_DATA;  /* 0 none, 1 mapping, 2 ready, -1 failed */
uintptr_t *rwc_site_table RWC_START_DATA; /* table, once ready */

static inline __attribute__((always_inline)) uintptr_t *get_table(void)
{
	uintptr_t *t = rwc_own_map_once((void **)&table, &table_state, RWC_SITE_SLOTS * sizeof(uintptr_t));

	if (t && !__atomic_load_n(&rwc_site_table, __ATOMIC_RELAXED))
		__atomic_store_n(&rwc_site_table, t, __ATOMIC_RELEASE);
	return t;
}

uint32_t rwc_site_id_slow(uintptr_t key)
{
	uintptr_t *t;
	uint32_t h;

	if (!key || !(t = get_table()))
		return 0;
	h = rwc_site_slot(key);
	for (uint32_t i = 0; i < PROBES; i++) {
		uint32_t at = (uint32_t)(h + i) & (RWC_SITE_SLOTS - 1);
		uintptr_t k;

		if (at == 0)
			continue;
		k = __atomic_load_n(&t[at], __ATOMIC_ACQUIRE);
		if (k == key)
			return at;
		if (k == 0) {
			if (__atomic_compare_exchange_n(&t[at], &k, key, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
			    k == key)
				return at;
		}
	}
	return 0;
}

uintptr_t rwc_site_key(uint32_t id)
{
	if (!id || id >= RWC_SITE_SLOTS || __atomic_load_n(&table_state, __ATOMIC_ACQUIRE) != 2)
		return 0;
	return __atomic_load_n(&table[id], __ATOMIC_ACQUIRE);
}

RWC_START_CODE void rwc_sites_prepare(void)
{
	(void)get_table();
}
