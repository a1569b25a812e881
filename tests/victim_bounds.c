/* victim_bounds.c: calls whose buffer lies in a heap block or a stack
 * frame, good or bad, for tests/bounds.py.  Same protocol as victim.c:
 *
 *   victim_bounds CASE good|bad
 *
 * prints "site FUNCTION LINE" for the call under test, "block ADDR SIZE"
 * for the heap block it uses (SIZE: malloc_usable_size), and
 * "result RET ERRNO".  This file: the heap cases and main; the stack
 * cases are victim_bounds_stack.c's.  Built -O0 -g (victim_bounds), -O2
 * -g (victim_bounds_o2), and both non-PIE. */
#define _GNU_SOURCE
#ifdef VICTIM_O0
#pragma GCC optimize("O0") /* the build's CFLAGS (-O2) come after ours */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "victim.h"
#include "victim_bounds.h"

int bad;
int file_fd; /* a 10-byte file */
int null_fd; /* /dev/null */
ssize_t ret;

static void block(const void *p)
{
	printf("block %p %zu\n", p, malloc_usable_size((void *)p));
}

/* Each heap case reads the 10-byte file into a 100-byte request: the bad
 * mode asks for 8192 bytes (the file is short: the call succeeds). */
static void heap_read(char *p)
{
	block(p);
	SITE(); ret = read(file_fd, p, bad ? 8192 : 100);
}

static void c_heap_malloc(void) { heap_read(malloc(100)); }
static void c_heap_calloc(void) { heap_read(calloc(10, 10)); }

/* A block allocated before the process's first checked call. */
static char *early;
static void c_heap_early(void) { heap_read(early); }
static void c_heap_memalign(void) { heap_read(memalign(64, 100)); }
static void c_heap_aligned_alloc(void) { heap_read(aligned_alloc(64, 128)); }
static void c_heap_valloc(void) { heap_read(valloc(100)); }
static void c_heap_pvalloc(void) { heap_read(pvalloc(100)); }

static void c_heap_posix_memalign(void)
{
	void *p = NULL;

	if (posix_memalign(&p, 32, 100) != 0)
		exit(99);
	heap_read(p);
}

static void c_heap_realloc(void)
{
	char *keep = malloc(16), *p = malloc(16);

	p = realloc(p, 100); /* grows past its neighbour: moves */
	heap_read(p);
	free(keep);
}

static void c_heap_realloc_shrink(void)
{
	char *p = realloc(malloc(2000), 100); /* the tail becomes a free chunk */

	heap_read(p);
}

/* An interior pointer: p + 50, asking for 50 (good) or 100 bytes. */
static void c_heap_interior(void)
{
	char *p = malloc(100);

	block(p);
	SITE(); ret = read(file_fd, p + 50, bad ? 100 : 50);
}

/* A vector call: segment 1 is the heap block. */
static void c_heap_readv(void)
{
	static char small[16];
	char *p = malloc(100);
	struct iovec iov[2] = {{small, 4}, {p, bad ? 4096 : 100}};

	block(p);
	SITE(); ret = readv(file_fd, iov, 2);
}

/* Written out of a freed block (write-like: the freed memory is only
 * read, so the program's heap survives the bad mode). */
static void c_heap_freed(void)
{
	char *p = malloc(100), *q = malloc(100);

	block(p);
	free(p);
	SITE(); ret = write(null_fd, bad ? p : q, 10);
	free(q);
}

/* A large block glibc serves with mmap: its last 100 bytes, or 4096
 * bytes from there (past the block, and past its mapping unless another
 * one happens to follow). */
static void c_heap_large(void)
{
	char *p = malloc(1 << 20);

	block(p);
	SITE(); ret = read(file_fd, p + malloc_usable_size(p) - 100, bad ? 4096 : 100);
}

/* Threads allocate, read into and free blocks of many sizes, and (by
 * turns of EVERY calls) read into the tail of a 24 MiB block each, far
 * above its start (the heap check's search for the start keeps such a
 * check in flight a while); with bad, every EVERY-th call of each thread
 * asks for 64 bytes past its block.  ROUNDS calls a thread (VICTIM_ROUNDS,
 * VICTIM_EVERY: 1000 and 100 by default).  Meanwhile one more thread
 * moves a page of its own with mremap (a change the library cannot
 * describe: its view of the map goes stale) every MOVE_EVERY of the
 * workers' calls, so that the map changes in the middle of checks. */
#define THREADS 4
#define MOVE_EVERY 8   /* the workers' calls between two moves */
#define BIG (24 << 20)
static int rounds = 1000, every = 100;
static char *bigs[THREADS], *guards[THREADS];
static unsigned long calls; /* the workers' calls so far */
static int workers_done;

static void *heap_worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg, bads = 0;
	char *big = bigs[seed - 1];
	size_t ub = malloc_usable_size(big);

	for (int i = 0; i < rounds; i++) {
		size_t n = 16 + rand_r(&seed) % 3000;
		char *p = malloc(n);
		int b = bad && i % every == every - 1, tail = (i / every) % 2;
		char *buf = tail ? big + ub - 100 : p;
		size_t count = tail ? 100 : n;

		if (pread(file_fd, buf, b ? (tail ? 164 : malloc_usable_size(p) + 64) : count, 0) < 0)
			exit(98);
		bads += (unsigned)b;
		free(p);
		__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	}
	return (void *)(uintptr_t)bads;
}

/* Moves the page whenever the workers have made MOVE_EVERY more calls:
 * at any point of a call of theirs, since it waits for them spinning
 * (another CPU) and in short sleeps (each wake-up interrupts a worker
 * wherever it is, when they share a CPU). */
static void *heap_mover(void *arg)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = pg, old;
	char *m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	while (m != MAP_FAILED && !__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE)) {
		unsigned long next = __atomic_load_n(&calls, __ATOMIC_RELAXED) + MOVE_EVERY;

		for (int spin = 0; __atomic_load_n(&calls, __ATOMIC_RELAXED) < next &&
				   !__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE); spin++)
			if (spin > 1000)
				usleep(50);
		old = len;
		len = len == pg ? 2 * pg : pg;
		m = mremap(m, old, len, MREMAP_MAYMOVE);
	}
	if (m == MAP_FAILED)
		exit(97);
	munmap(m, len);
	return NULL;
}

static void c_heap_threads(void)
{
	pthread_t t[THREADS], mv;
	uintptr_t total = 0;

	if (getenv("VICTIM_ROUNDS"))
		rounds = atoi(getenv("VICTIM_ROUNDS"));
	if (getenv("VICTIM_EVERY") && atoi(getenv("VICTIM_EVERY")) > 0)
		every = atoi(getenv("VICTIM_EVERY"));
	/* The big blocks from the heap, not mapped on their own (the bytes
	 * past such a block are past its mapping), each followed by a guard
	 * block: the bad bytes past it are mapped, in the guard. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	for (int i = 0; i < THREADS; i++)
		if (!(bigs[i] = malloc(BIG)) || !(guards[i] = malloc(64)))
			exit(97);
	pthread_create(&mv, NULL, heap_mover, NULL);
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, heap_worker, (void *)(i + 1));
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (uintptr_t)r;
		free(bigs[i]);
		free(guards[i]);
	}
	__atomic_store_n(&workers_done, 1, __ATOMIC_RELEASE);
	pthread_join(mv, NULL);
	printf("seeded %lu\n", (unsigned long)total);
	ret = 0;
}

/* The allocator wrappers leave errno alone on success (first calls
 * included: binding, the heap map's first leaf). */
static void c_alloc_errno(void)
{
	void *ps[64], *q, *a = NULL;
	int changed = 0;

	for (int i = 0; i < 64; i++) {
		errno = 1234;
		ps[i] = malloc((size_t)1 << (i % 22));
		changed += errno != 1234;
	}
	for (int i = 0; i < 64; i++) {
		errno = 4321;
		free(ps[i]);
		changed += errno != 4321;
	}
	errno = 77, q = calloc(10, 10), changed += errno != 77;
	errno = 78, q = realloc(q, 1 << 20), changed += errno != 78;
	errno = 79, free(q), changed += errno != 79;
	errno = 80, a = aligned_alloc(64, 640), changed += errno != 80;
	errno = 81, changed += posix_memalign(&q, 64, 100) != 0, changed += errno != 81;
	errno = 82, free(a), free(q), changed += errno != 82;
	printf("errno changed %d times\n", changed);
	ret = 0;
}

/* The descriptors open at the end (the library must add none). */
static void list_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	printf("fds %d\n", n - 1); /* less opendir's own */
}

static const struct victim_case cases[] = {
	VCASE(heap_malloc), VCASE(heap_calloc), VCASE(heap_early), VCASE(heap_memalign),
	VCASE(heap_aligned_alloc), VCASE(heap_valloc), VCASE(heap_pvalloc), VCASE(heap_posix_memalign),
	VCASE(heap_realloc), VCASE(heap_realloc_shrink), VCASE(heap_interior), VCASE(heap_readv),
	VCASE(heap_freed), VCASE(heap_large), VCASE(heap_threads), VCASE(alloc_errno),
};

int main(int argc, char **argv)
{
	const struct victim_case *c;
	int i;

	early = malloc(100);
	if (victim_args(argc, argv, "victim_bounds", &bad) < 0)
		return 2;
	if ((i = victim_find(argv[1], cases)) >= 0)
		c = &cases[i];
	else if ((i = victim_find_rows(argv[1], victim_stack_cases, victim_stack_ncases, sizeof(struct victim_case))) >= 0)
		c = &victim_stack_cases[i];
	else {
		fprintf(stderr, "victim_bounds: no case %s\n", argv[1]);
		return 2;
	}
	file_fd = victim_file("victim_bounds", "0123456789", 10, 0);
	null_fd = open("/dev/null", O_WRONLY);
	if (file_fd < 0 || null_fd < 0)
		return 99;
	errno = 0;
	c->fn();
	victim_result(ret, errno);
	if (getenv("VICTIM_FDS"))
		list_fds();
	return 0;
}
