/* victim_warm.c: bad calls made right after good ones warmed the library's
 * per-thread caches (the verdict cache of objects, the frame cache) on the
 * same buffer and call site: a block freed, freed and handed out smaller,
 * shrunk by realloc, read past its end deep inside; a page made read-only;
 * a global read past its end; a block freed by another thread; a stack
 * variable read past its end; a readv of 16 separate blocks, one of them
 * then freed, handed out again or shrunk; the first call on a block just
 * allocated (fresh*: the verdict cache's fresh slot).  "victim_warm CASE good|bad": the same calls,
 * the last one good or bad; it prints "site FUNCTION LINE" before each
 * call and "result R" after the last. */
#define _GNU_SOURCE
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

static int zfd;

/* A realloc and a free the library watches (the heap's top moved since the
 * last one counts as a map change): made after the case's blocks, before
 * its warm calls, so the calls that follow see no map change but the case's. */
static void settle(void)
{
	free(realloc(malloc(1), 2));
}

/* Every call of every case: one call site (not a tail call, whatever the
 * -O level: the report's first frame is rd). */
static __attribute__((noinline)) ssize_t rd(void *p, size_t n)
{
	ssize_t r;

	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(zfd, p, n);
	__asm__ volatile("" : : : "memory");
	return r;
}

static void warm(void *p, size_t n)
{
	for (int i = 0; i < 3; i++)
		if (rd(p, n) != (ssize_t)n)
			exit(3);
}

static __attribute__((noinline)) ssize_t c_free(int bad)
{
	char *p = malloc(100);

	warm(p, 100);
	if (!bad)
		return rd(p, 100);
	free(p);
	return rd(p, 1); /* use-after-free */
}

/* run with RWCHECK_QUARANTINE=0: the block comes back at once, smaller */
static __attribute__((noinline)) ssize_t c_reuse(int bad)
{
	char *p = malloc(100), *q;

	settle();
	warm(p, 100);
	free(p);
	q = malloc(97); /* the same chunk size */
	printf("same %d\n", p == q);
	return rd(q, bad ? 100 : 97);
}

static __attribute__((noinline)) ssize_t c_shrink(int bad)
{
	char *p = malloc(4000), *q;

	settle();
	warm(p, 4000);
	q = realloc(p, 100);
	printf("same %d\n", p == q);
	return rd(q, bad ? 4000 : 100);
}

/* a large block (its requested size escaped in the heap map) resized in
 * place to a size of the same pages */
static __attribute__((noinline)) ssize_t c_bigshrink(int bad)
{
	char *p = malloc(200000), *q;

	settle();
	warm(p + 100000, 100);
	q = realloc(p, 199000);
	printf("same %d\n", p == q);
	return bad ? rd(q + 198990, 20) : rd(q + 198980, 20);
}

/* a large block's end, read up to it and then past it */
static __attribute__((noinline)) ssize_t c_bigend(int bad)
{
	char *p = malloc(200000);

	warm(p + 199990, 10);
	return bad ? rd(p + 199995, 10) : rd(p + 199990, 10);
}

static __attribute__((noinline)) ssize_t c_interior(int bad)
{
	char *p = malloc(131072);

	warm(p + 65536, 1);
	return bad ? rd(p + 131072 - 10, 20) : rd(p + 131072 - 20, 20);
}

static __attribute__((noinline)) ssize_t c_widen(int bad)
{
	char *p = malloc(100);
	size_t u;

	warm(p, 100);
	u = malloc_usable_size(p);
	return rd(p, bad ? u + 1 : u);
}

static char page[8192] __attribute__((aligned(4096)));

static __attribute__((noinline)) ssize_t c_protect(int bad)
{
	ssize_t r;

	warm(page, 100);
	if (mprotect(page, 4096, PROT_READ) != 0)
		exit(4);
	r = rd(bad ? page : page + 4096, 100);
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
	return r;
}

static char g64[64];

static __attribute__((noinline)) ssize_t c_global(int bad)
{
	warm(g64, 64);
	return rd(g64, bad ? 65 : 64);
}

static pthread_barrier_t bar;
static char *shared;
static int thread_bad;
static ssize_t thread_r;

static void *reader(void *arg)
{
	(void)arg;
	warm(shared, 100);
	pthread_barrier_wait(&bar); /* main frees (bad) */
	pthread_barrier_wait(&bar);
	thread_r = rd(shared, thread_bad ? 1 : 100);
	return NULL;
}

/* FN in a thread of its own between two barriers, main freeing
 * `shared` between them when BAD; the reader's result. */
static ssize_t with_reader(void *(*fn)(void *), int bad)
{
	pthread_t t;

	thread_bad = bad;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t, NULL, fn, NULL);
	pthread_barrier_wait(&bar);
	if (bad)
		free(shared);
	pthread_barrier_wait(&bar);
	pthread_join(t, NULL);
	return thread_r;
}

static __attribute__((noinline)) ssize_t c_thread(int bad)
{
	shared = malloc(100);
	return with_reader(reader, bad);
}

static __attribute__((noinline)) ssize_t c_stack(int bad)
{
	char name[16], rest[240];
	ssize_t r;

	warm(name, sizeof name);
	r = rd(name, bad ? 32 : 16);
	__asm__ volatile("" : : "r"(name), "r"(rest) : "memory");
	return r;
}

/* The first call on a block right after its allocation: the thread's
 * fresh slot of the verdict cache (vcache.h: the allocator wrappers
 * enter each new block, once the map view has a generation: after the
 * process's first check).  stdout's buffer is made first, so that rd's
 * printf allocates nothing in between. */
static char fresh_warm[8];

static void fresh_start(void)
{
	printf("fresh\n");
	fflush(stdout);
	if (read(zfd, fresh_warm, sizeof fresh_warm) != sizeof fresh_warm) /* the view's first check */
		exit(3);
}

/* The first call on a 100-byte block just given by malloc, calloc or
 * aligned_alloc (HOW: 'm', 'c', 'a'), reading one byte past it when BAD. */
static ssize_t fresh100(char how, int bad)
{
	char *p;

	fresh_start();
	p = how == 'm' ? malloc(100) : how == 'c' ? calloc(25, 4) : aligned_alloc(64, 100);
	return rd(p, bad ? 101 : 100);
}

static __attribute__((noinline)) ssize_t c_fresh(int bad) { return fresh100('m', bad); }
static __attribute__((noinline)) ssize_t c_freshcalloc(int bad) { return fresh100('c', bad); }
static __attribute__((noinline)) ssize_t c_freshaligned(int bad) { return fresh100('a', bad); }

static __attribute__((noinline)) ssize_t c_freshfree(int bad)
{
	char *p;
	ssize_t r;

	fresh_start();
	p = malloc(100);
	if (!bad) {
		r = rd(p, 100);
		free(p);
		return r;
	}
	free(p);
	return rd(p, 1); /* use-after-free */
}

/* run with RWCHECK_QUARANTINE=0: the chunk comes back at once, smaller */
static __attribute__((noinline)) ssize_t c_freshreuse(int bad)
{
	char *p, *q;

	fresh_start();
	p = malloc(100);
	free(p);
	q = malloc(97);
	printf("same %d\n", p == q);
	return rd(q, bad ? 100 : 97);
}

static __attribute__((noinline)) ssize_t c_freshshrink(int bad)
{
	char *p, *q;

	fresh_start();
	p = malloc(4000);
	q = realloc(p, 100);
	printf("same %d\n", p == q);
	return rd(q, bad ? 101 : 100);
}

static __attribute__((noinline)) ssize_t c_freshwiden(int bad)
{
	char *p;
	size_t u;

	fresh_start();
	p = malloc(100);
	u = malloc_usable_size(p);
	return rd(p, bad ? u + 1 : u);
}

/* run with RWCHECK_QUARANTINE=0: a page inside a block made read-only,
 * the block freed and handed out again (a fresh block is not always
 * writable: the program changed a protection) */
static __attribute__((noinline)) ssize_t c_freshprot(int bad)
{
	char *p, *q, *pg;

	fresh_start();
	p = malloc(4 * 4096);
	pg = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095) + 4096; /* a middle page */
	if (mprotect(pg, 4096, PROT_READ) != 0)
		exit(4);
	free(p);
	q = malloc(4 * 4096);
	printf("same %d\n", p == q);
	return rd(q, bad ? 4 * 4096 : (size_t)(pg - q));
}

/* another thread's fresh block, freed by main before that thread reads */
static void *fresh_reader(void *arg)
{
	(void)arg;
	shared = malloc(100);
	pthread_barrier_wait(&bar); /* main frees (bad) */
	pthread_barrier_wait(&bar);
	thread_r = rd(shared, thread_bad ? 1 : 100);
	return NULL;
}

static __attribute__((noinline)) ssize_t c_freshthread(int bad)
{
	fresh_start();
	return with_reader(fresh_reader, bad);
}

/* A readv of 16 separate blocks, every segment a whole block (the
 * segment cache of the vector calls, bounds/segcache.h), the same call
 * site each time. */
#define NSEG 16
static __attribute__((noinline)) ssize_t rdv(struct iovec *v)
{
	ssize_t r;

	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = readv(zfd, v, NSEG);
	__asm__ volatile("" : : : "memory");
	return r;
}

/* segment 7's block then: freed (free), freed and handed out again with
 * the same chunk asking for less (vreuse: RWCHECK_QUARANTINE=0), or
 * shrunk in place to a chunk of the same slack (vshrink: its size word
 * alone tells) */
static ssize_t vsep(const char *how, int bad)
{
	static struct iovec v[NSEG];
	char *q;

	for (int i = 0; i < NSEG; i++)
		if (!(v[i].iov_base = malloc(256)))
			exit(5);
		else
			v[i].iov_len = 256;
	settle();
	for (int i = 0; i < 3; i++)
		if (rdv(v) != 256 * NSEG)
			exit(3);
	if (!bad)
		return rdv(v);
	if (!strcmp(how, "free")) {
		free(v[7].iov_base);
		return rdv(v); /* use-after-free */
	}
	if (!strcmp(how, "reuse")) {
		free(v[7].iov_base);
		q = malloc(250); /* the same chunk size: its slack byte differs */
	} else {
		q = realloc(v[7].iov_base, 96); /* usable 104: the same slack, 8 */
	}
	printf("same %d\n", q == v[7].iov_base);
	v[7].iov_base = q;
	return rdv(v);
}

/* A readv of 16 segments of one stack array, the call site a frame
 * below (as a helper of the program's): a span in one stack variable
 * (the fast path takes it in one look of the frame cache, entry/fastpath.h);
 * then its last segment run 64 bytes past the array (vstack), or the
 * segments taking turns between two arrays, the last one run past the
 * second (vstack2: the span holds both and what lies between). */
static __attribute__((noinline)) ssize_t rdvn(struct iovec *v, int say)
{
	ssize_t r;

	if (say) /* (the last call only: no stdio between the others) */
		printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = readv(zfd, v, NSEG);
	__asm__ volatile("" : : : "memory");
	return r;
}

static __attribute__((noinline)) ssize_t vstk(int two, int bad)
{
	static struct iovec v[NSEG];
	char a[NSEG * 256], b[NSEG * 256], rest[512];
	ssize_t r = 0;

	for (int i = 0; i < NSEG; i++) {
		v[i].iov_base = (two && (i & 1) ? b : a) + 256 * i;
		v[i].iov_len = 256;
	}
	printf("vstk\n"); /* stdout's buffer made before the calls: the last one's printf allocates nothing */
	fflush(stdout);
	/* the map view's per-thread cache learns every page of the three (a
	 * bad span then reaches the stack variable's look, not a page miss) */
	if (read(zfd, a, sizeof a) != sizeof a || read(zfd, b, sizeof b) != sizeof b ||
	    read(zfd, rest, sizeof rest) != sizeof rest)
		exit(3);
	for (int i = 0; i < 8; i++)
		if (rdvn(v, 0) != 256 * NSEG)
			exit(3);
	if (bad)
		v[NSEG - 1].iov_len = 256 + 64;
	r = rdvn(v, 1);
	__asm__ volatile("" : : "r"(a), "r"(b), "r"(rest) : "memory");
	return r;
}

static __attribute__((noinline)) ssize_t c_vstack(int bad) { return vstk(0, bad); }
static __attribute__((noinline)) ssize_t c_vstack2(int bad) { return vstk(1, bad); }
static __attribute__((noinline)) ssize_t c_vfree(int bad) { return vsep("free", bad); }
static __attribute__((noinline)) ssize_t c_vreuse(int bad) { return vsep("reuse", bad); }
static __attribute__((noinline)) ssize_t c_vshrink(int bad) { return vsep("shrink", bad); }

static const struct {
	const char *name;
	ssize_t (*fn)(int);
} cases[] = {
	{"free", c_free},         {"reuse", c_reuse},   {"shrink", c_shrink}, {"interior", c_interior},
	{"widen", c_widen},       {"protect", c_protect}, {"global", c_global}, {"thread", c_thread},
	{"stack", c_stack},       {"bigshrink", c_bigshrink}, {"bigend", c_bigend},
	{"vfree", c_vfree},       {"vreuse", c_vreuse}, {"vshrink", c_vshrink},
	{"vstack", c_vstack},     {"vstack2", c_vstack2},
	{"fresh", c_fresh},       {"freshcalloc", c_freshcalloc}, {"freshaligned", c_freshaligned},
	{"freshfree", c_freshfree}, {"freshreuse", c_freshreuse}, {"freshshrink", c_freshshrink},
	{"freshwiden", c_freshwiden}, {"freshthread", c_freshthread}, {"freshprot", c_freshprot},
};

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "good") && strcmp(argv[2], "bad")))
		return 2;
	zfd = open("/dev/zero", O_RDONLY);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (!strcmp(argv[1], cases[i].name)) {
			ssize_t r = cases[i].fn(!strcmp(argv[2], "bad"));
			printf("result %zd\n", r);
			return 0;
		}
	return 2;
}
