/* bad-child.c: one bad call, always from the same line: a 10-byte-ish
 * read into a buffer whose tail is unmapped (tests of the wrapper). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/cmdline", O_RDONLY), times = argc > 1 ? atoi(argv[1]) : 1;

	munmap(p + 4096, 4096);
	for (int i = 0; i < times; i++)
		if (pread(fd, p + 4096 - 100, 4096, 0) < 0) /* bytes 100..4095 unmapped */
			return 2;
	(void)argv;
	return 0;
}
