/* overruns.c: two reads that "work" only because the file is short, with
 * every byte of the buffer mapped: a heap block and a stack array too
 * small for the count.  The memory map cannot see them; rwcheck's heap
 * and stack checks (both on by default) can.
 *
 *   cc -g -o overruns examples/overruns.c
 *   ./rwcheck -- ./overruns */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static ssize_t read_name(int fd)
{
	char name[64];
	ssize_t n = read(fd, name, 256); /* bug: name has room for 64 bytes */

	return n;
}

int main(void)
{
	int fd = open("/etc/hostname", O_RDONLY);
	char *line = malloc(100);
	ssize_t n = read(fd, line, 4096); /* bug: line has room for 100 bytes */

	printf("read %zd bytes into the heap block, no error\n", n);
	lseek(fd, 0, SEEK_SET);
	printf("read %zd bytes into the stack array, no error\n", read_name(fd));
	free(line);
	return 0;
}
