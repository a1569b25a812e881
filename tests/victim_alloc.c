/* victim_alloc: the allocator-order cases of tests/allocators.py, built
 * as a PIE, a non-PIE and a -z now executable.  It takes malloc's address,
 * which gives a non-PIE executable a canonical PLT entry for malloc (what
 * dlsym(RTLD_DEFAULT, "malloc") then answers).
 *   victim_alloc read good|bad   read 100 / 200 bytes into malloc(100)
 *   victim_alloc overwrite        write 20 bytes past malloc(100), free it
 *   victim_alloc freed SIZE first|later
 *                                 read SIZE bytes of /dev/urandom into a
 *                                 block of SIZE just freed (later: after
 *                                 another bad call was reported), then
 *                                 go on allocating and exit
 *   victim_alloc freedkeep SIZE first|later
 *                                 the same from /dev/null (nothing moves),
 *                                 then a checksum of the freed block past
 *                                 its first 32 bytes (the allocator's) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *(*volatile victim_malloc)(size_t);

/* A read into a freed block: the program's own bug, harmless here (its
 * allocator's free lists are not used again for that size), so it must
 * stay harmless with the library's report in between. */
static int freed(size_t size, int later, int keep)
{
	int fd = open(keep ? "/dev/null" : "/dev/urandom", O_RDONLY);
	unsigned long sum = 0;
	char *p, *q;

	if (later) { /* another report first (libunwind and libdw loaded): an overrun
		      * request that transfers nothing */
		int null_fd = open("/dev/null", O_RDONLY);

		q = malloc(100);
		printf("first %d\n", (int)read(null_fd, q, 200));
		free(q);
		close(null_fd);
	}
	p = malloc(size);
	memset(p, 0xab, size);
	free(p);
	printf("freed %d\n", read(fd, p, size) > 0);
	if (keep && size < 128 * 1024) { /* what lies in the freed block past the allocator's own words */
		for (size_t i = 32; i < size; i++)
			sum = sum * 31 + (unsigned char)((volatile char *)p)[i];
		printf("contents %lx\n", sum);
	}
	for (int i = 0; i < 100; i++) /* a program going on */
		free(malloc(16 + 24 * (size_t)i));
	close(fd);
	puts("done");
	return 0;
}

int main(int argc, char **argv)
{
	char *p;
	int fd;
	size_t n;

	victim_malloc = malloc; /* in code: a non-PIE build takes a canonical PLT address */
	if (argc == 4 && (strcmp(argv[1], "freed") == 0 || strcmp(argv[1], "freedkeep") == 0)) {
		setvbuf(stdout, NULL, _IONBF, 0);
		return freed(strtoul(argv[2], NULL, 0), strcmp(argv[3], "later") == 0, argv[1][5] == 'k');
	}
	p = victim_malloc(100);
	fd = open("/etc/hostname", O_RDONLY);
	if (argc < 2 || !p || fd < 0)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (strcmp(argv[1], "read") == 0 && argc == 3) {
		n = strcmp(argv[2], "bad") == 0 ? 200 : 100;
		printf("result %d\n", read(fd, p, n) > 0);
	} else if (strcmp(argv[1], "overwrite") == 0) {
		for (volatile char *v = p; v < p + 120; v++)
			*v = 'x'; /* volatile: not a dead store before free */
	} else {
		return 2;
	}
	free(p);
	puts("done");
	return 0;
}
