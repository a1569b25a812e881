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
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* ---- large (mmapped) blocks: kept reserved once freed (bigfree.h) */

/* A block of 100 MiB, freed, then used 80 MiB in (past the heap map's
 * 64 MiB search for a block start). */
static NOINLINE void c_huge_read(void)
{
	char *p, *q = malloc(100);

	AT("alloc"); p = malloc(100 << 20);
	memset(p + (80 << 20), 'x', 10);
	printf("block %p\n", (void *)p);
	AT("free"); free(p);
	io(0, p + (80 << 20), q);
	free(q);
}

/* The end of the mapping of the mmapped block P (glibc's chunk header). */
static char *chunk_end(char *p)
{
	return p - 16 + (((size_t *)p)[-1] & ~(size_t)7);
}

/* A large block grown by realloc, a page mapped after it so that it
 * must move (mremap cannot grow it in place). */
static NOINLINE void big_moved(int wr)
{
	char *p, *q;
	void *g;

	AT("alloc"); p = malloc(200000);
	memset(p, 'x', 200000);
	g = mmap(chunk_end(p), 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	printf("block %p\n", (void *)p);
	AT("free"); q = realloc(p, 400000);
	printf("moved %d\n", p != q);
	io(wr, p, q);
	free(q);
	if (g != MAP_FAILED)
		munmap(g, 4096);
}

static void c_large_realloc_read(void) { big_moved(0); }
static void c_large_realloc_write(void) { big_moved(1); }

/* Bytes of anonymous PROT_NONE mappings (reserved address space) and
 * the number of mappings, from /proc/self/maps; RSS in KiB. */
static void maps(unsigned long *none, int *n, long *rss)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, ino;
	char perm[8];

	*none = 0;
	*n = 0;
	while (f && fgets(line, sizeof line, f)) {
		(*n)++;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perm, &ino) == 4 && !strcmp(perm, "---p") && !ino)
			*none += hi - lo;
	}
	if (f)
		fclose(f);
	*rss = 0;
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		sscanf(line, "VmRSS: %ld", rss);
	if (f)
		fclose(f);
}

/* N large blocks of SIZE: each filled, written out, freed. */
static void churn_large(int n, size_t size)
{
	for (int i = 0; i < n; i++) {
		char *p = malloc(size);

		memset(p, 'y', size);
		if (write(null_fd, p, 10) != 10)
			abort();
		free(p);
	}
}

/* 200, then 200 more 1 MiB blocks freed (more than the 64 reservations):
 * the reserved address space, the mappings and RSS stay flat; a fork
 * child goes on with the inherited reservations. */
static NOINLINE void c_many_large(void)
{
	unsigned long none[3];
	int n[3], st = -1;
	long rss[3];
	pid_t pid;

	mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* no dynamic threshold: all mmapped */
	maps(&none[0], &n[0], &rss[0]);
	churn_large(200, 1 << 20);
	maps(&none[1], &n[1], &rss[1]);
	churn_large(200, 1 << 20);
	maps(&none[2], &n[2], &rss[2]);
	printf("reserved %lu %lu %lu\nmappings %d %d %d\nrss %ld %ld %ld\n", none[0], none[1], none[2], n[0], n[1],
	       n[2], rss[0], rss[1], rss[2]);
	if ((pid = fork()) == 0) {
		churn_large(100, 1 << 20);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("child status %d\n", st);
	ret = 0;
	if (bad)
		freed(1, 1 << 20);
}

/* 40 blocks of 64 MiB freed: at most the budget (1 GiB) stays reserved. */
static NOINLINE void c_budget(void)
{
	unsigned long none[2];
	int n[2];
	long rss[2];

	maps(&none[0], &n[0], &rss[0]);
	for (int i = 0; i < 40; i++) {
		char *p = malloc(64 << 20);

		p[0] = 'z';
		free(p);
	}
	maps(&none[1], &n[1], &rss[1]);
	printf("reserved %lu %lu\n", none[0], none[1]);
	ret = 0;
	if (bad)
		freed(1, 64 << 20);
}

/* A freed large block's range unmapped and mapped again by the program
 * itself: its memory, never reported, never taken back by the library
 * (70 more large frees push every reservation out). */
static NOINLINE void c_remapped(void)
{
	char *p = malloc(1 << 20), *lo = p - 16, *m;
	size_t len = (size_t)(chunk_end(p) - lo);

	free(p);
	munmap(lo, len);
	m = mmap(lo, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* a hint: free now */
	memset(m, 'r', len);
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	churn_large(70, 1 << 20);
	printf("remapped %d intact %d\n", m == lo, m == lo && m[0] == 'r' && m[len - 1] == 'r');
	ret = write(null_fd, p, 10);
	munmap(m, len);
}

/* COUNT blocks of BASE..BASE+SPAN-1 bytes (from SEED), each read into,
 * written from and freed: a thread's churn. */
static void churn_blocks(unsigned seed, int count, size_t base, size_t span)
{
	for (int i = 0; i < count; i++) {
		size_t n = base + rand_r(&seed) % span;
		char *p = malloc(n);

		if (read(zero_fd, p, n) != (ssize_t)n || write(null_fd, p, n) != (ssize_t)n)
			abort();
		free(p);
	}
}

/* FN on four threads (arguments 1..4, their seeds), joined. */
static void four_threads(void *(*fn)(void *))
{
	pthread_t t[4];

	for (size_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, fn, (void *)(i + 1));
	for (size_t i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

/* Threads freeing large blocks while others read into theirs. */
static void *churn_big(void *arg)
{
	churn_blocks((unsigned)(size_t)arg, 300, 256 << 10, 768 << 10);
	return NULL;
}

static NOINLINE void c_large_threads(void)
{
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	four_threads(churn_big);
	ret = 0;
	if (bad)
		freed(0, 1 << 20);
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

/* A block freed twice, small (held by the quarantine) and large
 * (reserved, PROT_NONE): the library gives each back once and ignores
 * the repeated free (glibc alone would abort, or fault on the unmapped
 * header).  Run only under the library; the bad twin then reads the
 * small one. */
static NOINLINE void c_double_free(void)
{
	char *s, *b = malloc(4 << 20), *l = malloc(100);

	AT("alloc"); s = malloc(100);
	memset(s, 'x', 100); memset(b, 'x', 4 << 20);
	free(b); free(b);
	AT("free"); free(s);
	free(s);
	for (int i = 0; i < 100; i++)
		free(malloc(64)); /* other blocks through the quarantine */
	free(b);
	io(0, s, l);
	free(l);
	printf("double_free survived\n");
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
	churn_blocks((unsigned)(size_t)arg, 20000, 16, 3000);
	return NULL;
}

static NOINLINE void c_threads(void)
{
	four_threads(churn);
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

/* Allocation traces (RWCHECK_HEAP_ORIGINS=N) from five named frames deep,
 * taken after the heap grew (a moved program break: the map view's news)
 * and with 2000 blocks live: the block freed, then used. */
static char *grown[2000];
static NOINLINE void deep_leaf(int wr)
{
	freed(wr, 100);
}
static NOINLINE void deep_d(int wr) { deep_leaf(wr); __asm__ volatile("" ::: "memory"); }
static NOINLINE void deep_c(int wr) { deep_d(wr); __asm__ volatile("" ::: "memory"); }
static NOINLINE void deep_b(int wr) { deep_c(wr); __asm__ volatile("" ::: "memory"); }
static NOINLINE void deep_a(int wr) { deep_b(wr); __asm__ volatile("" ::: "memory"); }
static NOINLINE void c_deep(void)
{
	for (int i = 0; i < 2000; i++)
		grown[i] = malloc(1024);
	free(grown[0]); /* the free that sees the grown heap */
	grown[0] = NULL;
	deep_a(1);
	for (int i = 0; i < 2000; i++)
		free(grown[i]);
}

/* The same after the heap was trimmed (without the quarantine the frees
 * reach glibc, which gives the top back): the map view is stale until
 * the next check, and the traces are taken meanwhile. */
static NOINLINE void c_deep_trimmed(void)
{
	for (int i = 0; i < 2000; i++)
		grown[i] = malloc(3000); /* (above the tcache's sizes) */
	for (int i = 1999; i >= 0; i--)
		free(grown[i]);
	deep_a(1);
}

static const struct victim_case cases[] = {
	VCASE(small_read), VCASE(small_write), VCASE(large_read), VCASE(large_write), VCASE(realloc_read),
	VCASE(realloc_write), VCASE(reused), VCASE(threads), VCASE(fork), VCASE(aligned_write),
	VCASE(unrecorded), VCASE(aged), VCASE(huge_read), VCASE(large_realloc_read), VCASE(large_realloc_write),
	VCASE(many_large), VCASE(budget), VCASE(remapped), VCASE(large_threads), VCASE(deep), VCASE(deep_trimmed),
	VCASE(double_free),
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
