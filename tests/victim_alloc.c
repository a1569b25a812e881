/* victim_alloc: the allocator-order cases of tests/allocators.py, built
 * as a PIE, a non-PIE and a -z now executable.  It takes malloc's address,
 * which gives a non-PIE executable a canonical PLT entry for malloc (what
 * dlsym(RTLD_DEFAULT, "malloc") then answers).
 *   victim_alloc read good|bad   read 100 / 200 bytes into malloc(100)
 *   victim_alloc overwrite        write 20 bytes past malloc(100), free it */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *(*volatile victim_malloc)(size_t);

int main(int argc, char **argv)
{
	char *p;
	int fd;
	size_t n;

	victim_malloc = malloc; /* in code: a non-PIE build takes a canonical PLT address */
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
