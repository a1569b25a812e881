/* shim.c: a second preloaded library, after rwcheck: its read, pread and
 * write count their calls and go on to the next definition (libc), as an
 * interposer such as a fault injector does.  For tests/nextdef.py. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static int n_read, n_pread, n_write;

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*next)(int, void *, size_t);
	if (!next)
		next = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	n_read += n == 48; /* the program's calls (the library's own reads go here too) */
	return next(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*next)(int, void *, size_t, off_t);
	if (!next)
		next = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	n_pread += n == 48;
	return next(fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*next)(int, const void *, size_t);
	if (!next)
		next = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	n_write += n == 48;
	return next(fd, buf, n);
}

int shim_counts(int *r, int *p, int *w)
{
	*r = n_read, *p = n_pread, *w = n_write;
	return 0;
}
