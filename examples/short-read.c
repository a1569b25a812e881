/* short-read.c: a read() that "works" only because the file is short.
 * The buffer's last 3996 bytes are unmapped; the kernel copies 10 bytes
 * and says nothing.  rwcheck reports it.
 *
 *   cc -g -o short-read examples/short-read.c && ./rwcheck -- ./short-read */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static ssize_t load_header(int fd, char *buf)
{
	return read(fd, buf, 4096); /* bug: buf has room for 100 bytes */
}

int main(void)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/etc/hostname", O_RDONLY);
	ssize_t n;

	munmap(page + 4096, 4096);
	n = load_header(fd, page + 4096 - 100);
	printf("read %zd bytes, no error\n", n);
	return 0;
}
