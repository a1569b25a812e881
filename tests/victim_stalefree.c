/* victim_stalefree.c: a freed block's mark outlives its memory.  A block
 * of the brk heap is freed and glibc gives the heap's top back
 * (malloc_trim: brk lowered); the program maps new memory at the same
 * place and writes there, where the block's header was, a word that reads
 * as a chunk size of 4 GiB (python's test_socket met such a word after an
 * arena heap was given back: a buffer of the new memory was called a
 * use-after-free).  "victim_stalefree good|bad": a read of 16 bytes into
 * the new memory where the block was (good), or into a small block freed
 * just before (bad: a use-after-free, whose header is real).  Prints "site
 * FUNCTION LINE" before the call and "result R" after it; "skip" when the
 * place could not be had again. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static __attribute__((noinline)) ssize_t rd(int fd, char *p)
{
	ssize_t r;

	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(fd, p, 16);
	__asm__ volatile("" : : "r"(p) : "memory");
	return r;
}

int main(int argc, char **argv)
{
	int bad = argc > 1 && !strcmp(argv[1], "bad"), fd = open("/dev/zero", O_RDONLY);
	char *small, *big, *p, *q;
	uintptr_t page;

	mallopt(M_MMAP_THRESHOLD, 4 << 20); /* both from the brk heap */
	mallopt(M_TRIM_THRESHOLD, 64 << 10);
	big = malloc(1 << 20);
	p = malloc(100000);
	__asm__ volatile("" : : "r"(big), "r"(p) : "memory"); /* (at -O2 too) */
	page = ((uintptr_t)p - 16) & ~(uintptr_t)4095;
	free(p);
	free(big);
	malloc_trim(0); /* brk lowered below p */
	q = mmap((void *)page, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (q != (char *)page) {
		printf("skip\n");
		return 0;
	}
	*(uint64_t *)(p - 8) = 0xffffffe8u; /* where p's size word was */
	small = malloc(100);
	if (bad)
		free(small);
	printf("result %zd\n", rd(fd, bad ? small : p + 16));
	return 0;
}
