/* victim_smallstack.c: calls made on threads with small stacks (16 KiB,
 * PTHREAD_STACK_MIN; 64 KiB), where the library's deep work -- a new call
 * site's DWARF lookup, loading libunwind and libdw, unwinding and
 * symbolizing a report -- must not run on the program's stack.
 * "victim_smallstack SIZE CASE good|bad": CASE stack (a stack variable),
 * heap (a block), global, on a thread of SIZE bytes of stack; or altstack:
 * a stack variable read in a signal handler on a sigaltstack of SIZE bytes
 * (after a read outside it: the program's own lazy binding of read is
 * done, as in a program that did I/O before the signal).  It prints "site FUNCTION LINE"
 * before the call and "result R" after it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int zfd;
static int bad;
static const char *which;
static char gbuf[32];
static volatile int in_sig;

static __attribute__((noinline)) ssize_t c_stack(void)
{
	char name[16];
	char rest[64];
	ssize_t r;

	memset(rest, 0, sizeof rest);
	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(zfd, name, !bad ? sizeof name : in_sig ? 200 : 48); /* (in a handler: past the frame) */
	__asm__ volatile("" : : "r"(name), "r"(rest) : "memory");
	return r;
}

static __attribute__((noinline)) ssize_t c_heap(void)
{
	char *p = malloc(100);
	ssize_t r;

	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(zfd, p, bad ? 101 : 100);
	free(p);
	return r;
}

static __attribute__((noinline)) ssize_t c_global(void)
{
	ssize_t r;

	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(zfd, gbuf, bad ? 40 : sizeof gbuf);
	__asm__ volatile("" : : "r"(gbuf) : "memory");
	return r;
}

static volatile ssize_t in_handler = -2;

static void handler(int sig)
{
	(void)sig;
	in_sig = 1;
	in_handler = c_stack();
}

/* The handler on a sigaltstack of SIZE bytes. */
static int on_altstack(size_t size)
{
	stack_t st = {.ss_sp = malloc(size), .ss_size = size};
	struct sigaction sa;
	char warm[4];

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	if (!st.ss_sp || sigaltstack(&st, NULL) || sigaction(SIGUSR1, &sa, NULL) || read(zfd, warm, sizeof warm) < 0)
		return 3;
	raise(SIGUSR1);
	printf("result %zd\n", in_handler);
	return 0;
}

static void *thread(void *arg)
{
	ssize_t r = !strcmp(which, "stack") ? c_stack() : !strcmp(which, "heap") ? c_heap() : c_global();

	*(ssize_t *)arg = r;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t at;
	pthread_t t;
	ssize_t r = -2;
	int e;

	if (argc != 4)
		return 2;
	which = argv[2];
	bad = !strcmp(argv[3], "bad");
	zfd = open("/dev/null", O_RDONLY); /* the bad calls write nothing */
	if (!strcmp(which, "altstack"))
		return on_altstack(strtoul(argv[1], NULL, 0));
	pthread_attr_init(&at);
	e = pthread_attr_setstacksize(&at, strtoul(argv[1], NULL, 0));
	if (!e)
		e = pthread_create(&t, &at, thread, &r);
	if (e) {
		printf("pthread_create: %s\n", strerror(e));
		return 3;
	}
	pthread_join(t, NULL);
	printf("result %zd\n", r);
	return 0;
}
