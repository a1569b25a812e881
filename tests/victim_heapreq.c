/* victim_heapreq.c: heap blocks judged by the size the program asked for,
 * for tests/heapreq.py.  Same protocol as victim.c:
 *
 *   victim_heapreq CASE good|bad
 *
 * prints "site FUNCTION LINE" for the call under test, "block ADDR REQ
 * USABLE" for the block it uses (USABLE from glibc's chunk header, read
 * here: malloc_usable_size() would widen the block), and "result RET
 * ERRNO".  Each bad call asks a few bytes past the request, inside the
 * usable size, so that only the requested size tells it apart.  The file
 * read is 10 bytes: every call succeeds.  Built -O0 -g (victim_heapreq)
 * and -O2 -g (victim_heapreq_o2). */
#define _GNU_SOURCE
#ifdef VICTIM_O0
#pragma GCC optimize("O0") /* the build's CFLAGS come after ours */
#endif
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "victim.h"

static int bad;
static int file_fd; /* a 10-byte file */
static int null_fd; /* /dev/null */
static ssize_t ret;

/* glibc's usable size, from the chunk header below the block. */
static __attribute__((noinline)) size_t usable_of(const void *p)
{
	/* volatile: the compiler must not reason about bytes below a block */
	size_t h = *(const volatile size_t *)((uintptr_t)p - sizeof(size_t));

	return (h & ~(size_t)7) - ((h & 2) ? 2 : 1) * sizeof(size_t);
}

static void block(const void *p, size_t req)
{
	printf("block %p %zu %zu\n", p, req, usable_of(p));
}

/* Reads GOOD bytes, or BAD, into P (the block at BASE of REQ bytes). */
static NOINLINE void read_at(char *base, size_t req, char *p, size_t good, size_t badn)
{
	block(base, req);
	SITE(); ret = read(file_fd, p, bad ? badn : good);
	__asm__ volatile("" : : "r"(p) : "memory");
}

static NOINLINE void c_malloc(void)
{
	char *p = malloc(100);

	read_at(p, 100, p, 100, 101);
	free(p);
}

static NOINLINE void c_calloc(void)
{
	char *p = calloc(10, 10);

	read_at(p, 100, p, 100, 101);
	free(p);
}

static NOINLINE void c_realloc_shrink(void)
{
	char *p = realloc(malloc(200), 100);

	read_at(p, 100, p, 100, 150);
	free(p);
}

static NOINLINE void c_realloc_grow(void)
{
	char *p = malloc(16), *keep = malloc(16);

	__asm__ volatile("" : : "r"(keep) : "memory"); /* kept at -O2 */
	p = realloc(p, 300); /* past its neighbour: moves */
	read_at(p, 300, p, 300, 301);
	free(p);
	free(keep);
}

static NOINLINE void c_reallocarray(void)
{
	char *p = reallocarray(malloc(10), 10, 10);

	read_at(p, 100, p, 100, 101);
	free(p);
}

static NOINLINE void c_aligned_alloc(void)
{
	char *p = aligned_alloc(64, 100);

	read_at(p, 100, p, 100, 101);
	free(p);
}

static NOINLINE void c_posix_memalign(void)
{
	void *p = NULL;

	if (posix_memalign(&p, 32, 99) != 0)
		exit(99);
	read_at(p, 99, p, 99, 100);
	free(p);
}

static NOINLINE void c_memalign(void)
{
	char *p = memalign(128, 77);

	read_at(p, 77, p, 77, 78);
	free(p);
}

static NOINLINE void c_valloc(void)
{
	char *p = valloc(100);

	read_at(p, 100, p, 100, 101);
	free(p);
}

/* pvalloc promises whole pages: 4096 of them asked for. */
static NOINLINE void c_pvalloc(void)
{
	char *p = pvalloc(100);

	read_at(p, 4096, p, 4096, 4097);
	free(p);
}

/* After malloc_usable_size() the program may use every usable byte. */
static NOINLINE void c_widened(void)
{
	char *p = malloc(100);
	size_t u = malloc_usable_size(p);

	read_at(p, u, p, u, u + 1);
	free(p);
}

/* A block glibc maps on its own (its usable size is page-rounded: the
 * slack does not fit the heap map's byte), read from an interior pointer
 * up to, or one byte past, its requested end. */
static NOINLINE void c_large_interior(void)
{
	size_t n = 1 << 20;
	char *p = malloc(n);

	read_at(p, n, p + n - 100, 100, 101);
	free(p);
}

/* Written out of a freed block (write-like: the freed memory is only
 * read, so the heap survives); the good twin writes out of a live one. */
static NOINLINE void c_freed(void)
{
	char *p = malloc(100), *q = malloc(100);

	block(p, 100);
	free(p);
	SITE(); ret = write(null_fd, bad ? p : q, 10);
	free(q);
}

/* A block freed by realloc's move: its old address is freed memory. */
static NOINLINE void c_realloc_moved(void)
{
	char *p = malloc(20), *keep = malloc(16), *q;

	__asm__ volatile("" : : "r"(keep) : "memory"); /* kept at -O2 */
	block(p, 20);
	q = realloc(p, 300); /* past its neighbour: moves */
	printf("moved %d\n", p != q);
	SITE(); ret = write(null_fd, bad ? p : q, 10);
	free(q);
	free(keep);
}

/* A buffer that starts at the block's usable end: the next chunk's size
 * word, glibc's own (written out of: the heap survives); the good twin
 * writes out of the block's last requested bytes. */
static NOINLINE void c_header(void)
{
	char *p = malloc(100), *q = malloc(100);

	__asm__ volatile("" : : "r"(q) : "memory"); /* the next chunk, kept */
	block(p, 100);
	SITE(); ret = write(null_fd, bad ? p + usable_of(p) : p + 92, 8);
	free(q);
	free(p);
}

/* A buffer 8 bytes below a block, where the chunk below is a freed
 * block's: in no block, it runs into the block's chunk header from
 * below (the helper's D4: `read(fd, a - 8, 16)` went unreported). */
static NOINLINE void c_below(void)
{
	char *a = malloc(100), *p = malloc(100);

	free(a);
	block(p, 100);
	SITE(); ret = write(null_fd, bad ? p - 8 : p, 16);
	free(p);
}

/* The same over two blocks: from 8 bytes below P through Q above it; the
 * report is P's, the lowest block the range runs into (its first bad
 * byte is P's size word). */
static NOINLINE void c_below_two(void)
{
	char *a = malloc(100), *p = malloc(100), *q = malloc(100);

	free(a);
	block(p, 100);
	SITE(); ret = write(null_fd, bad ? p - 8 : p, bad ? (size_t)(q - p) + 108 : 16);
	free(q);
	free(p);
}

/* The same below a large block (mapped on its own, top-down: no block
 * below it in its part of the heap map), after good writes of it (the
 * fast path's caches warm). */
static NOINLINE void c_below_big(void)
{
	char *p = malloc(1 << 20);

	for (int k = 0; k < 4; k++)
		if (write(null_fd, p, 16) != 16)
			exit(3);
	block(p, 1 << 20);
	SITE(); ret = write(null_fd, bad ? p - 8 : p, 16);
	free(p);
}

/* Every descriptor in use (a soft limit of 32 under a higher hard one):
 * the report still reaches its log (the library opens it one past the
 * soft limit for that open alone), and leaves no descriptor behind
 * ("emfile 1": the next open still fails). */
static NOINLINE void c_nofile(void)
{
	char *p = malloc(100);
	struct rlimit r;
	int f;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_max < 64)
		exit(77);
	r.rlim_cur = 32;
	if (setrlimit(RLIMIT_NOFILE, &r))
		exit(77);
	while (open("/dev/null", O_RDONLY) >= 0)
		;
	block(p, 100);
	SITE(); ret = write(null_fd, p, bad ? 101 : 100);
	f = open("/dev/null", O_RDONLY);
	printf("emfile %d\n", f < 0 && errno == EMFILE);
	free(p);
}

/* A freed block handed out again by the next malloc: its new owner's. */
static NOINLINE void c_reused(void)
{
	char *p = malloc(100), *q;

	free(p);
	q = malloc(100);
	printf("reused %d\n", p == q);
	block(q, 100);
	SITE(); ret = write(null_fd, p, bad ? 101 : 100);
	free(q);
}

static const struct victim_case cases[] = {
	VCASE(malloc), VCASE(calloc), VCASE(realloc_shrink), VCASE(realloc_grow), VCASE(reallocarray),
	VCASE(aligned_alloc), VCASE(posix_memalign), VCASE(memalign), VCASE(valloc), VCASE(pvalloc),
	VCASE(widened), VCASE(large_interior), VCASE(freed), VCASE(realloc_moved), VCASE(reused), VCASE(header), VCASE(below), VCASE(below_two), VCASE(below_big), VCASE(nofile),
};

int main(int argc, char **argv)
{
	int i = victim_pick(argc, argv, "victim_heapreq", cases, &bad);

	if (i < 0)
		return 2;
	file_fd = victim_file("victim_heapreq", "0123456789", 10, 0);
	null_fd = open("/dev/null", O_WRONLY);
	if (file_fd < 0 || null_fd < 0)
		return 99;
	errno = 0;
	cases[i].fn();
	victim_result(ret, errno);
	return 0;
}
