/* victim_ready.c: epoll_wait, poll and select in a loop, the same call
 * from the same place several times (what the library remembers of a
 * good call: src/entry/readiness.c), then one more whose buffer changed
 * under it or whose capacity grew.  "bad": the last call runs past its
 * object (a global, a heap block shrunk in place, a page made read-only,
 * a stack variable, one at the same address in another caller's frame)
 * while its result is harmless (an empty epoll set, pipes
 * with nothing to read); "good": the same sequence with a last call that
 * fits.
 *
 *   victim_ready CASE good|bad -> "site FUNC LINE" per call, then
 *   "result RET ERRNO" of the last call (errno 0 when it left it alone) */
#define _GNU_SOURCE 1
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <unistd.h>

#define SITE() printf("site %s %d\n", __func__, __LINE__)
#define WARM 3 /* good calls before the last one */

static int bad, ep, pfd[2];
static long r;
static struct epoll_event gev[8];

/* One call site per call: the loop's calls and the last one are the same
 * call from the same place. */
static __attribute__((noinline, noclone)) long ep_call(struct epoll_event *e, int n)
{
	SITE(); return epoll_wait(ep, e, n, 0);
}
static __attribute__((noinline, noclone)) long poll_call(struct pollfd *f, nfds_t n)
{
	SITE(); return poll(f, n, 0);
}
static __attribute__((noinline, noclone)) long sel_call(fd_set *s, int nfds)
{
	struct timeval t = {0, 0};
	SITE(); return select(nfds, s, NULL, NULL, &t);
}

static void pollfds(struct pollfd *f, int n)
{
	for (int i = 0; i < n; i++)
		f[i] = (struct pollfd){.fd = pfd[0], .events = POLLIN};
}

/* A global of 8 events, then 64 asked for. */
static void c_global_grow(void)
{
	for (int i = 0; i < WARM; i++)
		ep_call(gev, 8);
	r = ep_call(gev, bad ? 64 : 8);
}

/* A heap block of 64 events, shrunk in place to 24 bytes. */
static void c_heap_shrink(void)
{
	struct epoll_event *e = malloc(64 * sizeof *e), *e2 = e;

	free(realloc(malloc(64 * sizeof *e), 24)); /* what a first realloc maps, mapped */
	for (int i = 0; i < WARM; i++)
		ep_call(e, 64);
	if (bad && (e2 = realloc(e, 24)) != e)
		exit(77); /* moved: not the case asked for */
	r = ep_call(e2, 64);
}

/* Two calls taking turns (the library remembers both), then the heap
 * block of one shrunk in place. */
static void c_turns_heap(void)
{
	struct epoll_event *e = malloc(64 * sizeof *e), *e2 = e;

	free(realloc(malloc(64 * sizeof *e), 24));
	for (int i = 0; i < WARM + 2; i++) {
		ep_call(e, 64);
		ep_call(gev, 8);
	}
	if (bad && (e2 = realloc(e, 24)) != e)
		exit(77);
	r = ep_call(e2, 64);
}

/* Four pollfds across a page boundary, the second page then read-only. */
static void c_protect(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pollfd *f = (struct pollfd *)(p + 4096 - 2 * sizeof *f);

	if (p == MAP_FAILED)
		exit(3);
	pollfds(f, 4);
	for (int i = 0; i < WARM; i++)
		poll_call(f, 4);
	if (mprotect(p + 4096, 4096, bad ? PROT_READ : PROT_READ | PROT_WRITE))
		exit(3);
	r = poll_call(f, 4);
}

/* A stack fd_set of one long (64 descriptors), select's own frame's,
 * with the timeout beside it: 1100 asked for at last (the kernel copies
 * only the bits of the descriptors the process has room for: 64 here). */
static __attribute__((noinline, noclone)) long stack_select(int nfds)
{
	unsigned long set[1] = {0};
	struct timeval t = {0, 0};

	SITE(); return select(nfds, (fd_set *)set, NULL, NULL, &t);
}
static void c_stack_grow(void)
{
	for (int i = 0; i < WARM; i++)
		stack_select(64);
	r = stack_select(bad ? 1100 : 64);
}

/* The same fd_set in the frame of sel_call's caller (the stack check
 * confirms the frames between each time). */
static __attribute__((noinline, noclone)) long parent_select(int nfds)
{
	unsigned long set[1] = {0};

	for (int i = 0; i < WARM; i++)
		sel_call((fd_set *)set, 64);
	return sel_call((fd_set *)set, nfds);
}
static void c_parent_grow(void) { r = parent_select(bad ? 1100 : 64); }

/* The same call (same pointers and sizes, same call site) from two
 * callers whose sets lie at the same address: 18 longs in one, one long
 * in the other (the stack check's verdict differs by the frames between).
 * Each caller runs below a gap of the stack (alloca) sized so that the
 * two sets meet. */
static uintptr_t a_set; /* a number: the frame is gone when it is read */
static __attribute__((noinline, noclone)) long parent_a(int probe)
{
	unsigned long set[18] __attribute__((aligned(16))) = {0};

	a_set = (uintptr_t)set;
	for (int i = 0; !probe && i < WARM; i++)
		sel_call((fd_set *)set, 1100);
	return 0;
}
static __attribute__((noinline, noclone)) long parent_b(int probe)
{
	unsigned long set[1] __attribute__((aligned(16))) = {0};

	if (probe)
		return (long)((uintptr_t)set - a_set);
	if ((uintptr_t)set != a_set)
		exit(77); /* the gap did not line them up */
	return sel_call((fd_set *)set, bad ? 1100 : 64);
}
static __attribute__((noinline, noclone)) long below_gap(long gap, long (*fn)(int), int probe)
{
	volatile char *g = __builtin_alloca(gap + 1);

	g[0] = 0;
	return fn(probe);
}
static void c_other_parent(void)
{
	long d;

	below_gap(0, parent_a, 1);
	d = below_gap(0, parent_b, 1);
	if (d % 16)
		exit(77);
	below_gap(d < 0 ? -d : 0, parent_a, 0);
	r = below_gap(d > 0 ? d : 0, parent_b, 0);
}

/* A heap fd_set of 144 bytes (1100 bits need 18 longs), shrunk in place
 * to 136. */
static void c_select_shrink(void)
{
	fd_set *s = calloc(1, 144), *s2 = s;

	free(realloc(calloc(1, 144), 136));
	for (int i = 0; i < WARM; i++)
		sel_call(s, 1100);
	if (bad && (s2 = realloc(s, 136)) != s)
		exit(77);
	memset(s2, 0, 136);
	r = sel_call(s2, 1100);
}

#define C(n) {#n, c_##n}
static const struct { const char *name; void (*fn)(void); } cases[] = {
	C(global_grow), C(heap_shrink), C(turns_heap), C(protect), C(stack_grow), C(parent_grow), C(other_parent), C(select_shrink),
};

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	bad = strcmp(argv[2], "bad") == 0;
	ep = epoll_create1(0);
	if (ep < 0 || pipe(pfd))
		return 3;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(argv[1], cases[i].name) == 0) {
			int e;

			errno = 0;
			cases[i].fn();
			e = errno;
			printf("result %ld %s\n", r, e ? strerrorname_np(e) : "0");
			return 0;
		}
	return 2;
}
