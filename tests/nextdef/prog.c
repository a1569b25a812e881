/* prog.c: dlopens local.so (RTLD_LOCAL) before its first read, then reads
 * /dev/zero and preads /dev/null (good calls; with "bad" the pread asks
 * for 48 bytes into `char small[8]`, hidden by the empty file); prints what each call returned and, when shim.so is
 * preloaded, how many calls reached it.  For tests/nextdef.py. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char small[8], big[48];
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int fd = open("/dev/zero", O_RDONLY), nul = open("/dev/null", O_RDONLY), r, p, w;
	int (*counts)(int *, int *, int *) = (int (*)(int *, int *, int *))dlsym(RTLD_DEFAULT, "shim_counts");
	ssize_t a, b;

	if (!h || fd < 0 || nul < 0)
		return 99;
	a = read(fd, big, sizeof big);
	b = pread(nul, argc > 2 ? small : big, sizeof big, 0);
	printf("read %zd pread %zd\n", a, b);
	fflush(stdout);
	if (counts && counts(&r, &p, &w) == 0)
		printf("shim read %d pread %d\n", r, p);
	printf("local %d\n", *(int *)dlsym(h, "local_calls"));
	return 0;
}
