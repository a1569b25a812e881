/* rawframes.c: modules of raw frames (see rawframes.h).
 * Async-signal-safe: open, read, close; no allocation. */
#include "config.h"

#include "frames/rawframes.h"

#include <string.h>
#include <unistd.h>

#include "mapview/maps_parse.h"
#include "mapview/mapsfile.h"
#include "base/real.h"

struct ctx {
	struct rwc_frame *fr;
	int n;
};

static int place(const struct rwc_map_entry *e, void *arg)
{
	struct ctx *c = arg;

	for (int i = 0; i < c->n; i++) {
		struct rwc_frame *f = &c->fr[i];
		size_t len = e->path_len < sizeof f->module - 1 ? e->path_len : sizeof f->module - 1;

		if (f->module[0] || f->pc - 1 < e->start || f->pc - 1 >= e->end || !len)
			continue;
		memcpy(f->module, e->path, len);
		f->module[len] = '\0';
		f->module_off = f->pc - (e->start - (uintptr_t)e->offset);
	}
	return 0;
}

void rwc_raw_modules(struct rwc_frame *fr, int n)
{
	struct ctx c = {fr, n};
	char buf[1024]; /* (a longer line's path is cut short; a handler's stack may be small) */
	int fd = rwc_map_open();

	if (fd < 0)
		return;
	rwc_maps_scan(fd, rwc_read_real, buf, sizeof buf, place, &c, NULL);
	close(fd);
}
