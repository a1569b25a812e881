/* early.c: a preloaded library whose constructor runs before
 * librwcheck's (listed after it in LD_PRELOAD) and makes a bad write():
 * calls that arrive before the constructor are checked too. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((constructor)) static void early_bad_write(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (p == MAP_FAILED || fd < 0)
		return;
	munmap(p + 4096, 4096);
	(void)!write(fd, p + 4096 - 100, 4096); /* bytes 100..4095 unmapped */
	close(fd);
}

/* Runs after librwcheck's destructor (destructors run in the reverse
 * order of constructors): calls after the library's destructor are still
 * checked. */
__attribute__((destructor)) static void late_bad_write(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (p == MAP_FAILED || fd < 0)
		return;
	munmap(p + 4096, 4096);
	(void)!write(fd, p + 4096 - 50, 4096); /* bytes 50..4095 unmapped */
	close(fd);
}
