/* parse-header.c: a test that passes although its read() asks for more
 * than its buffer holds: the file is short, so nothing overflows today.
 * rwcheck fails the suite because of it. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static int read_header(int fd, char *hdr)
{
	return read(fd, hdr, 4096) > 0; /* bug: hdr has room for 64 bytes */
}

int main(void)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/cmdline", O_RDONLY);

	munmap(page + 4096, 4096); /* what lies after the 64 bytes */
	return read_header(fd, page + 4096 - 64) ? 0 : 1;
}
