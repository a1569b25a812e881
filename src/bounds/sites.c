/* sites.c: the site table (see sites.h): open addressing over the keys,
 * slot 0 never used (id 0 means none), in .bss (pages touched as used;
 * no mapping at start); the probing path of rwc_site_id (sites.h has the
 * first-slot look). */
#include "config.h"

#include "bounds/sites.h"

#include "base/common.h"

#define PROBES 32

uintptr_t rwc_site_table[RWC_SITE_SLOTS]; /* keys; 0: a free slot */

uint32_t rwc_site_id_slow(uintptr_t key)
{
	uintptr_t *t = rwc_site_table;
	uint32_t h;

	if (!key)
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
	if (!id || id >= RWC_SITE_SLOTS)
		return 0;
	return __atomic_load_n(&rwc_site_table[id], __ATOMIC_ACQUIRE);
}

