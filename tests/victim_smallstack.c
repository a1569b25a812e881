/* victim_smallstack.c: calls made on threads with small stacks (16 KiB,
 * PTHREAD_STACK_MIN; 64 KiB), where the library's deep work -- a new call
 * site's DWARF lookup, loading libunwind and libdw, unwinding and
 * symbolizing a report -- must not run on the program's stack.
 * "victim_smallstack SIZE CASE good|bad": CASE stack (a stack variable),
 * heap (a block), global; SIZE in bytes.  It prints "site FUNCTION LINE"
 * before the call and "result R" after it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int zfd;
static int bad;
static const char *which;
static char gbuf[32];

static __attribute__((noinline)) ssize_t c_stack(void)
{
	char name[16];
	char rest[64];
	ssize_t r;

	memset(rest, 0, sizeof rest);
	printf("site %s %d\n", __func__, __LINE__ + 2);
	fflush(stdout);
	r = read(zfd, name, bad ? 48 : sizeof name);
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
