/* objcache.c: a module's global objects across processes (see
 * objcache.h).  One file per module file, DIR/<build-id>-<version>-<file>.objs,
 * made whole before it gets its name, so a reader sees a whole file or
 * none; its header read first, then the whole file at the module's load. */
#include "config.h"

#include "bounds/objcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/knobs.h"
#include "base/real.h"


/* DIR/<build-id>-<version>-<file>.objs into PATH (the room of DIR +
 * 200), <file> a hash of the file's identity (a copy, a stripped or a
 * rebuilt file keeps the build-id: each has its own); 0 when the cache is
 * off or ID is not a build-id. */
static int file_of(const char *id, const struct rwc_oc_ident *f, char *path, size_t cap)
{
	size_t l = strlen(id);

	if (!rwc_knobs.cache[0] || l < 16 || l > 128)
		return 0;
	return snprintf(path, cap, "%s/%s-%s-%016llx.objs", rwc_knobs.cache, id, PACKAGE_VERSION,
			(unsigned long long)rwc_oc_ident_hash(f)) < (int)cap;
}

size_t rwc_objcache_get(const char *id, const struct rwc_oc_ident *f, uintptr_t bias, uintptr_t start,
			uintptr_t end, void *(*keep)(size_t), struct rwc_gobj **table, uint64_t *stroff,
			uint64_t *strsize, int *stale)
{
	char path[sizeof rwc_knobs.cache + 200];
	_Alignas(8) unsigned char head[RWC_OC_HEAD];
	int saved = errno, fd;
	struct stat st;
	unsigned char *buf;
	size_t n = 0;

	*stale = 0;
	if (!file_of(id, f, path, sizeof path))
		return 0;
	/* (not a FIFO's wait, not a terminal made the controlling one) */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*stale = errno == ELOOP; /* (a symlink in its place) */
		errno = saved;
		return 0;
	}
	*stale = 1;
	/* the header first: nothing of a file that is not this one's is kept */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= RWC_OC_HEAD &&
	    rwc_pread_all(fd, head, sizeof head, 0) == 0 && rwc_oc_head(head, (size_t)st.st_size, f) != SIZE_MAX &&
	    (buf = keep((size_t)st.st_size)) && rwc_pread_all(fd, buf, (size_t)st.st_size, 0) == 0 &&
	    (n = rwc_oc_decode(buf, (size_t)st.st_size, f, bias, start, end, table, stroff, strsize)))
		*stale = 0;
	close(fd);
	errno = saved;
	return n;
}



/* BUF's N bytes as PATH, whole or not at all: an unnamed file in the
 * directory linked in when written (nothing is left behind by a process
 * that ends meanwhile); where the file system has none, a file of a name
 * of its own renamed into place.  STALE: a file there is replaced. */
static void publish(const char *path, const unsigned char *buf, size_t n, int stale)
{
	char tmp[sizeof rwc_knobs.cache + 224], fdpath[40];
	int fd = open(rwc_knobs.cache, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600), bad;

	if (fd >= 0) {
		snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
		if (rwc_write_all(fd, buf, n) == 0) {
			if (stale)
				unlink(path);
			if (linkat(AT_FDCWD, fdpath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0)
				errno = 0; /* (EEXIST: another process's; the caller keeps errno) */
		}
		close(fd);
		return;
	}
	if (snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid()) >= (int)sizeof tmp)
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
	if (fd < 0)
		return;
	bad = rwc_write_all(fd, buf, n) != 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) != 0)
		unlink(tmp);
}

void rwc_objcache_put(const char *id, const struct rwc_oc_ident *f, uintptr_t bias, const struct rwc_gobj *o,
		      size_t n, uint64_t stroff, uint64_t strsize, int stale, void *(*take)(size_t),
		      void (*give)(void *))
{
	char path[sizeof rwc_knobs.cache + 200];
	int saved = errno;
	size_t len = rwc_oc_size(n);
	unsigned char *buf;

	if (n && n <= RWC_OC_MAXN && file_of(id, f, path, sizeof path) && rwc_no_size_limit() && (buf = take(len))) {
		rwc_oc_encode(o, n, bias, stroff, strsize, f, buf);
		publish(path, buf, len, stale);
		give(buf);
	}
	errno = saved;
}
