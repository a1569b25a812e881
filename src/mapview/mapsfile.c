/* mapsfile.c: opening /proc/self/maps (see mapsfile.h).  Async-signal-
 * safe; no allocation. */
#include "config.h"

#include "mapview/mapsfile.h"

#include <fcntl.h>

#include "base/fileio.h"
#include "base/log.h"

static int proc_warned;

int rwc_map_open(void)
{
	int fd = rwc_open_spare("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0 && !__atomic_exchange_n(&proc_warned, 1, __ATOMIC_RELAXED))
		rwc_log_warning("cannot open /proc/self/maps; the maps checks give no verdict where the "
				"library's view of the map does not know the memory", NULL);
	return fd;
}
