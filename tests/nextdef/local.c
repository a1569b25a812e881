/* local.c: a plugin dlopened RTLD_LOCAL that happens to export read and
 * pread of its own (they fail): never the next definition of anyone's
 * read, as dlsym(RTLD_NEXT) says.  For tests/nextdef.py. */
#include <errno.h>
#include <sys/types.h>

int local_calls;

ssize_t read(int fd, void *buf, size_t n)
{
	(void)fd, (void)buf, (void)n;
	local_calls++;
	errno = ENOSYS;
	return -1;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	(void)fd, (void)buf, (void)n, (void)off;
	local_calls++;
	errno = ENOSYS;
	return -1;
}
