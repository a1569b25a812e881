/* victim_uaf.c: freed memory, for tests/uaf.py.  Protocol:
 *
 *   victim_uaf CASE good|bad
 *
 * prints "block ADDR" for the block under test, "alloc FUNCTION LINE" and
 * "free FUNCTION LINE" for where it was allocated and freed, "site
 * FUNCTION LINE" for the call under test and "result RET ERRNO".  The bad
 * call reads or writes 10 bytes of a freed block; the good twin the same
 * bytes of a live one.  Built -O0 -g. */
#define _GNU_SOURCE
#pragma GCC optimize("O0") /* the build's CFLAGS come after ours */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "victim.h"
#define AT(what) printf("%s %s %d\n", what, __func__, __LINE__)

static int bad;
static int file_fd; /* a 10-byte file */
static int null_fd; /* /dev/null */
static int zero_fd; /* /dev/zero */
static ssize_t ret;

/* Reads (WR 0) or writes 10 bytes at P, or at the live block Q. */
static NOINLINE void io(int wr, char *p, char *q)
{
	char *b = bad ? p : q;

	if (wr) {
		AT("site"); ret = write(null_fd, b, 10);
	} else {
		lseek(file_fd, 0, SEEK_SET);
		AT("site"); ret = read(file_fd, b, 10);
	}
}

/* A block of N bytes freed, then used. */
static NOINLINE void freed(int wr, size_t n)
{
	char *p, *q = malloc(n);

	AT("alloc"); p = malloc(n);
	memset(p, 'x', n);
	printf("block %p\n", (void *)p);
	AT("free"); free(p);
	io(wr, p, q);
	free(q);
}

/* A block freed, then 20 more blocks (across the quarantine's claims of
 * ring slots, 16 at a time per thread), then read: freed 21 frees ago. */
static NOINLINE void c_aged(void)
{
	char *p, *q = malloc(100), *more[20];
	int i;

	AT("alloc"); p = malloc(100);
	for (i = 0; i < 20; i++)
		more[i] = malloc(32);
	memset(p, 'x', 100);
	printf("block %p\n", (void *)p);
	AT("free"); free(p);
	for (i = 0; i < 20; i++)
		free(more[i]);
	io(0, p, q);
	free(q);
}

static void c_small_read(void) { freed(0, 100); }
static void c_small_write(void) { freed(1, 100); }
static void c_large_read(void) { freed(0, 200000); }  /* mmapped by glibc */
static void c_large_write(void) { freed(1, 200000); }

/* An aligned block (aligned_alloc, posix_memalign) freed, then written out. */
static NOINLINE void c_aligned_write(void)
{
	char *p, *q = malloc(100);
	void *r = NULL;

	AT("alloc"); p = aligned_alloc(256, 512);
	memset(p, 'x', 512);
	printf("block %p\n", (void *)p);
	AT("free"); free(p);
	io(1, p, q);
	if (posix_memalign(&r, 64, 300) == 0)
		free(r);
	free(q);
}

/* Blocks glibc gave without the library's wrappers (as from another
 * allocator's view): never held, glibc has them back at once. */
extern void *__libc_malloc(size_t);
static NOINLINE void c_unrecorded(void)
{
	char *p = __libc_malloc(100), *q;

	free(p);
	q = __libc_malloc(100);
	printf("again %d\n", p == q);
	free(q);
	ret = 0;
}

/* The old block of a realloc that moved. */
static NOINLINE void moved(int wr)
{
	char *p, *q;

	AT("alloc"); p = malloc(20);
	memset(p, 'x', 20);
	printf("block %p\n", (void *)p);
	AT("free"); q = realloc(p, 5000);
	printf("moved %d\n", p != q);
	io(wr, p, q);
	free(q);
}

static void c_realloc_read(void) { moved(0); }
static void c_realloc_write(void) { moved(1); }

/* A block freed, then handed out again once the quarantine let it go: the
 * bad call runs one byte past its new owner's request. */
static NOINLINE void c_reused(void)
{
	char *p = malloc(100), *q = NULL;
	long i;

	free(p);
	for (i = 0; i < 1000000 && (q = malloc(100)) != p; i++)
		free(q);
	printf("reused %d after %ld\n", p == q, i);
	AT("site"); ret = write(null_fd, q, bad ? 101 : 100);
	free(q);
}

/* Threads freeing while others read into their own live blocks. */
static void *churn(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;

	for (int i = 0; i < 20000; i++) {
		size_t n = 16 + rand_r(&seed) % 3000;
		char *p = malloc(n);

		if (read(zero_fd, p, n) != (ssize_t)n || write(null_fd, p, n) != (ssize_t)n)
			abort();
		free(p);
	}
	return NULL;
}

static NOINLINE void c_threads(void)
{
	pthread_t t[4];

	for (size_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, churn, (void *)(i + 1));
	for (size_t i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ret = 0;
	if (bad)
		freed(1, 100);
}

/* A fork child with a full quarantine: it churns (giving back what it
 * inherited), then makes the case's call on a block it freed itself. */
static NOINLINE void c_fork(void)
{
	int st = 0;
	pid_t pid;

	for (int i = 0; i < 20000; i++)
		free(malloc(64 + i % 200));
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 20000; i++)
			free(malloc(64 + i % 300));
		freed(1, 100);
		_exit(ret == 10 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	printf("child %d status %d\n", (int)pid, st);
	ret = st;
}

static const struct victim_case cases[] = {
	VCASE(small_read), VCASE(small_write), VCASE(large_read), VCASE(large_write), VCASE(realloc_read),
	VCASE(realloc_write), VCASE(reused), VCASE(threads), VCASE(fork), VCASE(aligned_write),
	VCASE(unrecorded), VCASE(aged),
};

int main(int argc, char **argv)
{
	int i = victim_pick(argc, argv, "victim_uaf", cases, &bad);

	if (i < 0)
		return 2;
	file_fd = victim_file("victim_uaf", "0123456789", 10, 0);
	null_fd = open("/dev/null", O_WRONLY);
	zero_fd = open("/dev/zero", O_RDONLY);
	if (file_fd < 0 || null_fd < 0 || zero_fd < 0)
		return 99;
	errno = 0;
	cases[i].fn();
	victim_result(ret, errno);
	return 0;
}
