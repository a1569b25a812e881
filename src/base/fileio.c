/* fileio.c: the library's own file I/O (see fileio.h). */
#include "config.h"

#include "base/fileio.h"

#include <string.h>
#include <sys/auxv.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/real.h"

int rwc_pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = REAL(pread)(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

int rwc_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = REAL(write)(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int rwc_open_spare(const char *path, int flags, unsigned mode)
{
	int fd = open(path, flags, mode), e = errno;
	struct rlimit was, more;

	if (fd >= 0 || e != EMFILE || getrlimit(RLIMIT_NOFILE, &was) != 0 || was.rlim_cur >= was.rlim_max) {
		errno = e;
		return fd;
	}
	more = was;
	more.rlim_cur = was.rlim_cur + 1;
	if (setrlimit(RLIMIT_NOFILE, &more) != 0) {
		errno = e;
		return -1;
	}
	fd = open(path, flags, mode);
	e = errno;
	(void)setrlimit(RLIMIT_NOFILE, &was);
	errno = e;
	return fd;
}

int rwc_no_size_limit(void)
{
	struct rlimit r;

	return getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur == RLIM_INFINITY;
}

const char *rwc_exec_name(void)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);

	if (!fn || fn[0] != '/' || strncmp(fn, "/dev/", 5) == 0 || strncmp(fn, "/proc/", 6) == 0)
		return NULL;
	return fn;
}
