/* objcache.c: a module's global objects across processes (see
 * objcache.h).  One file per module, DIR/<build-id>-<version>.objs,
 * written to a name of its own and renamed into place, so a reader sees a
 * whole file or none; read whole at the module's load. */
#include "config.h"

#include "bounds/objcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/knobs.h"
#include "base/real.h"


/* DIR/<id>-<version>.objs into PATH (the room of DIR + 180); 0 when the
 * cache is off or ID is not a build-id. */
static int file_of(const char *id, char *path, size_t cap)
{
	size_t l = strlen(id);

	if (!rwc_knobs.cache[0] || l < 16 || l > 128)
		return 0;
	return snprintf(path, cap, "%s/%s-%s.objs", rwc_knobs.cache, id, PACKAGE_VERSION) < (int)cap;
}

size_t rwc_objcache_get(const char *id, uintptr_t bias, uintptr_t start, uintptr_t end,
			void *(*keep)(size_t), struct rwc_gobj **table, uint64_t *stroff, uint64_t *strsize)
{
	char path[sizeof rwc_knobs.cache + 180];
	int saved = errno, fd;
	struct stat st;
	unsigned char *buf;
	size_t n = 0, len = 0;
	ssize_t r;

	if (!file_of(id, path, sizeof path))
		return 0;
	/* (not a FIFO's wait, not a terminal made the controlling one) */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		errno = saved;
		return 0;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= rwc_oc_size(0) &&
	    (uint64_t)st.st_size <= rwc_oc_size(RWC_OC_MAXN) && (buf = keep((size_t)st.st_size))) {
		while (len < (size_t)st.st_size &&
		       (r = REAL(pread)(fd, buf + len, (size_t)st.st_size - len, (off_t)len)) > 0)
			len += (size_t)r;
		n = rwc_oc_decode(buf, len, bias, start, end, table, stroff, strsize);
	}
	close(fd);
	errno = saved;
	return n;
}

/* The process may write a file of any size (no RLIMIT_FSIZE: past one,
 * a write ends it with SIGXFSZ). */
static int no_size_limit(void)
{
	struct rlimit r;

	return getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur == RLIM_INFINITY;
}

void rwc_objcache_put(const char *id, uintptr_t bias, const struct rwc_gobj *o, size_t n, uint64_t stroff,
		      uint64_t strsize, void *(*take)(size_t), void (*give)(void *))
{
	char path[sizeof rwc_knobs.cache + 180], tmp[sizeof path + 24];
	int saved = errno, fd;
	size_t len = rwc_oc_size(n), at = 0;
	unsigned char *buf;
	ssize_t w = 0;

	if (!n || n > RWC_OC_MAXN || !file_of(id, path, sizeof path) || access(path, F_OK) == 0 || !no_size_limit() ||
	    snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid()) >= (int)sizeof tmp || !(buf = take(len))) {
		errno = saved;
		return;
	}
	rwc_oc_encode(o, n, bias, stroff, strsize, buf);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
	if (fd >= 0) {
		while (at < len && (w = REAL(write)(fd, buf + at, len - at)) > 0)
			at += (size_t)w;
		if (close(fd) != 0 || at != len || rename(tmp, path) != 0)
			unlink(tmp);
	}
	give(buf);
	errno = saved;
}
