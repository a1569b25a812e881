/* parse-ok.c: reads a file into a buffer big enough for the request. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[4096];
	int fd = open("/proc/self/cmdline", O_RDONLY);

	return read(fd, buf, sizeof buf) > 0 ? 0 : 1;
}
