/* fuzz_sites.c: libFuzzer target for the call-site cache's records
 * (frames/sitefmt.c: what a later process reads back from a file any
 * earlier one wrote; make fuzz); the kept corpus is replayed in make
 * check.  Every record the reader takes is read whole, and encoding what
 * it read gives the same bytes back. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frames/sitefmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rwc_sf_var v[RWC_SF_MAXVARS];
	static unsigned char again[1u << 16];
	size_t at = 0, l;
	uint64_t pc;
	unsigned n;

	while (at < size && (l = rwc_sf_decode(data + at, size - at, &pc, &n)) > 0) {
		size_t sum = 0;

		if (l > size - at || n > RWC_SF_MAXVARS)
			abort();
		rwc_sf_vars(data + at, v);
		for (unsigned i = 0; i < n; i++) {
			sum += (v[i].name ? strlen(v[i].name) : 0) + (v[i].type ? strlen(v[i].type) : 0) +
			       (v[i].file ? strlen(v[i].file) : 0) + (v[i].func ? strlen(v[i].func) : 0);
		}
		(void)sum;
		if (rwc_sf_encode(pc, v, n, again, sizeof again) > 0 && l <= sizeof again &&
		    rwc_sf_decode(again, l, &pc, &n) != l)
			abort();
		at += l;
	}
	return 0;
}
