/* victim_bounds_stack.c: the stack cases of the victim_bounds programs
 * (see victim_bounds.c, which runs them): reads into a frame's buffer
 * from it, its callees, a thread, a signal handler (on the thread's
 * stack or an alternate one) and a vfork child, good or past the frame.
 * The functions that own stack buffers are noinline so that their frames
 * exist at -O2 too. */
#define _GNU_SOURCE
#ifdef VICTIM_O0
#pragma GCC optimize("O0") /* the build's CFLAGS (-O2) come after ours */
#endif
#include <alloca.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "victim.h"
#include "victim_bounds.h"

/* ---- stack: a 64-byte local, read 64 (good) or 256 bytes ---------- */
static NOINLINE ssize_t local64(void)
{
	char b[64];
	ssize_t r;

	SITE(); r = read(file_fd, b, bad ? 256 : sizeof b);
	__asm__ volatile("" : : "r"(b) : "memory");
	return r;
}

static void c_stack_local(void) { ret = local64(); }

/* The buffer is the caller's; the callee reads into it. */
static NOINLINE ssize_t callee(char *b, size_t n)
{
	ssize_t r;

	SITE(); r = read(file_fd, b, n);
	__asm__ volatile("" : : : "memory"); /* no tail call: this frame stays */
	return r;
}

static NOINLINE ssize_t caller256(void)
{
	char b[256];
	ssize_t r = callee(b, bad ? 1024 : sizeof b);

	__asm__ volatile("" : : "r"(b) : "memory");
	return r;
}

static void c_stack_caller(void) { ret = caller256(); }

/* One call site (callee) reached from two callers at the same depth: the
 * first one's frame, cached as good, must not vouch for the second's. */
static NOINLINE ssize_t caller_a(void)
{
	char b[256];
	ssize_t r = callee(b, sizeof b);

	__asm__ volatile("" : : "r"(b) : "memory");
	return r;
}

static NOINLINE ssize_t caller_b(void)
{
	char b[64];
	ssize_t r = callee(b, bad ? 256 : sizeof b);

	__asm__ volatile("" : : "r"(b) : "memory");
	return r;
}

static void c_stack_two_callers(void)
{
	for (int i = 0; i < 3; i++)
		if (caller_a() < 0)
			exit(98);
	ret = caller_b();
}

static NOINLINE ssize_t with_alloca(size_t n)
{
	char *b = alloca(n);

	SITE(); ret = read(file_fd, b, bad ? n + 512 : n);
	__asm__ volatile("" : : "r"(b) : "memory");
	return ret;
}

static void c_stack_alloca(void) { ret = with_alloca(300); }

static NOINLINE ssize_t with_vla(size_t n)
{
	char b[n];

	SITE(); ret = read(file_fd, b, bad ? n + 512 : n);
	__asm__ volatile("" : : "r"(b) : "memory");
	return ret;
}

static void c_stack_vla(void) { ret = with_vla(300); }

static void *stack_thread(void *arg)
{
	(void)arg;
	ret = local64();
	return NULL;
}

static void c_stack_thread(void)
{
	pthread_t t;

	pthread_create(&t, NULL, stack_thread, NULL);
	pthread_join(t, NULL);
}

/* ---- stack, issue 14: the frame walk without libunwind -------------- */

/* Is libunwind mapped in this process? */
static int libunwind_loaded(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof line, f))
		found |= strstr(line, "libunwind") != NULL;
	if (f)
		fclose(f);
	return found;
}

/* Good reads into the caller's own frame only: nothing is loaded. */
static void c_stack_nolib(void)
{
	ret = local64();
	printf("libunwind %s\n", libunwind_loaded() ? "loaded" : "not loaded");
}

/* The buffer two frames up: mid passes it on to callee. */
static NOINLINE ssize_t mid(char *b, size_t n)
{
	ssize_t r = callee(b, n);

	__asm__ volatile("" : : : "memory"); /* no tail call */
	return r;
}

static NOINLINE ssize_t caller_down2(void)
{
	char b[128];
	ssize_t r = mid(b, bad ? 512 : sizeof b);

	__asm__ volatile("" : : "r"(b) : "memory");
	return r;
}

static void c_stack_down2(void) { ret = caller_down2(); }

/* A signal handler reads into its own stack buffer, interrupting the
 * program's own checked calls (a timer): good every time, or (bad) an
 * overrun once. */
static volatile sig_atomic_t handled, handler_bad;

static NOINLINE void on_signal(int sig)
{
	char b[32];
	int e = errno;

	(void)sig;
	if (pread(file_fd, b, handler_bad && handled == 5 ? 128 : sizeof b, 0) < 0)
		_exit(97);
	__asm__ volatile("" : : "r"(b) : "memory");
	handled++;
	errno = e;
}

static void c_stack_signal(void)
{
	struct sigaction sa;
	struct itimerval it = {{0, 200}, {0, 200}};

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGALRM, &sa, NULL);
	handler_bad = bad;
	bad = 0;
	/* the first checked call, before any signal: it may load libdw for
	 * the program's DWARF, and a handler that interrupts the library is
	 * not checked (its calls are the library's own, nested) */
	lseek(file_fd, 0, SEEK_SET);
	if (local64() < 0)
		exit(98);
	setitimer(ITIMER_REAL, &it, NULL);
	for (long i = 0; handled < 50 && i < 100000000; i++) {
		lseek(file_fd, 0, SEEK_SET);
		if (local64() < 0)
			exit(98);
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("handled %d\n", handled >= 50);
	ret = 0;
}

/* The same on an alternate signal stack. */
static void c_stack_altstack(void)
{
	stack_t ss = {.ss_sp = malloc(65536), .ss_size = 65536, .ss_flags = 0};
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		exit(96);
	handler_bad = bad;
	handled = bad ? 5 : 0; /* bad: the first run overruns */
	raise(SIGUSR1);
	printf("handled %d\n", handled == (bad ? 6 : 1));
	ret = 0;
}

/* A vfork child reads into its own frame's buffer, then _exits. */
static NOINLINE int vfork_read(void)
{
	char b[48];
	ssize_t r;

	SITE(); r = pread(file_fd, b, bad ? 200 : sizeof b, 0);
	__asm__ volatile("" : : "r"(b) : "memory");
	return r == 10 ? 0 : 1;
}

static void c_stack_vfork(void)
{
	int st = -1;
	pid_t p = vfork();

	if (p == 0)
		_exit(vfork_read());
	if (p < 0 || waitpid(p, &st, 0) != p)
		exit(95);
	printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	ret = 0;
}

/* Four threads, each its own stack: 200 good reads, then (bad) one
 * overrun each. */
static void *threads_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 200; i++)
		if (pread(file_fd, (char[64]){0}, 64, 0) < 0)
			exit(98);
	return (void *)(intptr_t)local64();
}

static void c_stack_threads(void)
{
	pthread_t t[4];
	void *r;

	ret = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, threads_worker, NULL);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		ret += (intptr_t)r;
	}
}

/* Good calls in a loop (the frame cache), then one bad one. */
static void c_stack_loop(void)
{
	int b = bad;

	bad = 0;
	for (int i = 0; i < 1000; i++)
		if (local64() < 0)
			exit(98);
	bad = b;
	ret = local64();
}

const struct victim_case victim_stack_cases[] = {
	VCASE(stack_local), VCASE(stack_caller), VCASE(stack_two_callers), VCASE(stack_alloca),
	VCASE(stack_vla), VCASE(stack_thread), VCASE(stack_loop), VCASE(stack_nolib), VCASE(stack_down2),
	VCASE(stack_signal), VCASE(stack_altstack), VCASE(stack_vfork), VCASE(stack_threads),
};
const size_t victim_stack_ncases = sizeof victim_stack_cases / sizeof victim_stack_cases[0];
