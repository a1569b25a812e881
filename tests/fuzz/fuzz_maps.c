/* fuzz_maps.c: libFuzzer target for the /proc/<pid>/maps parser and the
 * range verdict over what it parsed (make fuzz).  The same entry point
 * replays the kept corpus in make check (fuzz_replay.c). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/checks.h"
#include "mapview/maps_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct src {
	const uint8_t *p;
	size_t left;
};

static struct src *cur;
static struct rwc_region regions[512];
static size_t nregions;

/* Feeds the input in short, uneven pieces, as a kernel read may. */
static ssize_t fake_read(int fd, void *buf, size_t n)
{
	size_t k = cur->left < n ? cur->left : n;

	(void)fd;
	if (k > 97)
		k = 97;
	memcpy(buf, cur->p, k);
	cur->p += k;
	cur->left -= k;
	return (ssize_t)k;
}

static int collect(const struct rwc_map_entry *e, void *arg)
{
	(void)arg;
	if (e->end < e->start || e->path_len > 4096 || (e->path_len && !e->path))
		abort();
	if (nregions < sizeof regions / sizeof regions[0] &&
	    (nregions == 0 || e->start >= regions[nregions - 1].end)) {
		regions[nregions].start = e->start;
		regions[nregions].end = e->end;
		regions[nregions].prot = e->prot;
		nregions++;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src s = {data, size};
	char buf[256];
	unsigned bad = 0;
	struct rwc_verdict v;

	cur = &s;
	nregions = 0;
	rwc_maps_scan(0, fake_read, buf, sizeof buf, collect, NULL, &bad);
	for (size_t i = 0; i < nregions; i++) {
		rwc_verdict_init(&v, regions[i].start, (size_t)(regions[i].end - regions[i].start) + 4096,
				 RWC_NEED_READ);
		rwc_verdict_array(&v, regions, nregions);
		if (v.problem != RWC_OK && (v.bad_lo < v.lo || v.bad_hi > v.hi || v.bad_lo >= v.bad_hi))
			abort();
	}
	return 0;
}
