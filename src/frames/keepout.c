/* keepout.c: holding the program's holes while a helper library loads
 * (see keepout.h). */
#include "config.h"

#include "frames/keepout.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapview/mapsfile.h"
#include "mapview/snapshot.h"
#include "mapview/maps_parse.h"
#include "base/real.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define MAX_GAPS 256
#define GAP_MAX ((uintptr_t)1 << 30)

struct gap {
	uintptr_t lo, hi;
};

static struct gap gaps[MAX_GAPS];
static int ngaps RWC_START_DATA;

struct scan {
	uintptr_t prev_end;
	int prev_heap; /* the mapping below is [heap]: its room to grow stays */
};

static int is(const struct rwc_map_entry *e, const char *name)
{
	size_t n = strlen(name);

	return e->path_len == n && memcmp(e->path, name, n) == 0;
}

static int collect(const struct rwc_map_entry *e, void *arg)
{
	struct scan *s = arg;

	if (s->prev_end && e->start > s->prev_end && e->start - s->prev_end <= GAP_MAX &&
	    !s->prev_heap && !is(e, "[stack]") && ngaps < MAX_GAPS) {
		gaps[ngaps].lo = s->prev_end;
		gaps[ngaps++].hi = e->start;
	}
	s->prev_end = e->end;
	s->prev_heap = is(e, "[heap]");
	return 0;
}

/* Nested holds (a DWARF lookup that loads libdw) share the outermost. */
static int depth RWC_START_DATA; /* (read first: not on gaps[]'s page) */

int rwc_keepout_begin(void)
{
	char buf[4096];
	struct scan s = {0, 0};
	int fd, held = 0;

	if (depth++ > 0)
		return ngaps;
	ngaps = 0;
	fd = rwc_map_open();
	if (fd < 0)
		return 0;
	rwc_maps_scan(fd, rwc_read_real, buf, sizeof buf, collect, &s, NULL);
	close(fd);
	for (int i = 0; i < ngaps; i++) {
		void *want = (void *)gaps[i].lo, *p;

		p = REAL(mmap)(want, gaps[i].hi - gaps[i].lo, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == want) {
			held++;
			continue;
		}
		if (p != MAP_FAILED) /* a kernel without MAP_FIXED_NOREPLACE put it elsewhere */
			REAL(munmap)(p, gaps[i].hi - gaps[i].lo);
		gaps[i].hi = gaps[i].lo; /* not held */
	}
	return held;
}

void rwc_keepout_end(void)
{
	if (depth > 0 && --depth > 0)
		return;
	for (int i = 0; i < ngaps; i++)
		if (gaps[i].hi > gaps[i].lo)
			REAL(munmap)((void *)gaps[i].lo, gaps[i].hi - gaps[i].lo);
	ngaps = 0;
	rwc_map_changed(); /* the libraries' own mappings, too */
}
