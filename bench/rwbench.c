/* rwbench.c: micro-workloads for `make bench`.  Each prints one number:
 * nanoseconds per operation.  The driver (bench/run.py) runs every
 * workload with and without librwcheck.so, alternating, and compares.
 *
 *   rwbench WORKLOAD [ITERATIONS] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
static long iters;
static int zero_fd, null_fd;
static char buf[65536];

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

#define LOOP(body)                                      \
	do {                                            \
		double t0 = now_ns();                   \
		for (long i = 0; i < iters; i++) {      \
			body;                           \
		}                                       \
		printf("%.2f\n", (now_ns() - t0) / (double)iters); \
	} while (0)

static void w_read(size_t n) { LOOP(if (read(zero_fd, buf, n) != (ssize_t)n) die("read")); }
static void w_write1(void) { LOOP(if (write(null_fd, buf, 1) != 1) die("write")); }

static void w_pread4k(void)
{
	char path[] = "/tmp/rwbench-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp");
	unlink(path);
	for (int i = 0; i < 256; i++)
		if (write(fd, buf, 4096) != 4096)
			die("write");
	LOOP(if (pread(fd, buf, 4096, (off_t)(i & 255) * 4096) != 4096) die("pread"));
}

static void w_readv16(void)
{
	struct iovec v[16];
	for (int i = 0; i < 16; i++)
		v[i].iov_base = buf + i * 512, v[i].iov_len = 256;
	LOOP(if (readv(zero_fd, v, 16) != 4096) die("readv"));
}

static void *thread_reads(void *arg)
{
	char b[1];
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)(intptr_t)arg, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort */
	for (long i = 0; i < iters; i++)
		if (read(zero_fd, b, 1) != 1)
			die("read");
	return NULL;
}

static void w_threads2(void)
{
	pthread_t t[2];
	double t0 = now_ns();
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_reads, (void *)(intptr_t)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%.2f\n", (now_ns() - t0) / (double)iters);
}

static void w_mmapchurn(void)
{
	LOOP(char *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	     if (p == MAP_FAILED || read(zero_fd, p + 100, 1) != 1) die("churn");
	     munmap(p, 65536));
}

static void w_manymaps(void)
{
	static char *maps[20000];
	int MAPS = getenv("RWBENCH_MAPS") ? atoi(getenv("RWBENCH_MAPS")) : 20000;
	char *area = mmap(NULL, (size_t)MAPS * 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	unsigned r = 12345;
	if (area == MAP_FAILED)
		die("mmap area");
	munmap(area, (size_t)MAPS * 2 * 4096);
	/* one page every two: 20,000 separate mappings the kernel cannot merge */
	for (int i = 0; i < MAPS; i++) {
		maps[i] = mmap(area + (size_t)i * 2 * 4096, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (maps[i] == MAP_FAILED)
			die("mmap");
	}
	/* settle the view before timing: the first checks of a process ask
	 * the kernel one mapping at a time (mapview.c: 16 of them), the
	 * whole map is read at the next */
	for (int i = 0; i < 32 && i < MAPS; i++)
		if (read(zero_fd, maps[i], 1) != 1)
			die("read");
	LOOP(r = r * 1103515245u + 12345u;
	     if (read(zero_fd, maps[(r >> 8) % MAPS] + (r & 1023), 1) != 1) die("read"));
}

static void w_spawn(void)
{
	char *argv[] = {"/bin/true", NULL};
	LOOP(pid_t pid; int st;
	     if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ) != 0) die("spawn");
	     waitpid(pid, &st, 0));
}

/* ---- where real programs put their buffers (issue 17) ---- */

/* One 128 KiB I/O buffer, as a program keeps it: reads land deep inside. */
static char *big_block(void)
{
	char *p = malloc(128 * 1024);
	if (!p)
		die("malloc");
	return p;
}

/* 1-byte reads at varying offsets deep inside the block. */
static void w_heapmid(void)
{
	char *p = big_block();
	LOOP(if (read(zero_fd, p + 65536 + (i & 4095) * 8, 1) != 1) die("read"));
}

/* 1-byte writes from the start of the block. */
static void w_heapwrite1(void)
{
	char *p = big_block();
	memset(p, 'x', 64);
	LOOP(if (write(null_fd, p, 1) != 1) die("write"));
}

/* readv of 16 x 256 B at 512-byte strides in the block's second half. */
static void w_readvblock(void)
{
	char *p = big_block();
	struct iovec v[16];
	for (int i = 0; i < 16; i++)
		v[i].iov_base = p + 65536 + i * 512, v[i].iov_len = 256;
	LOOP(if (readv(zero_fd, v, 16) != 4096) die("readv"));
}

/* readv of 16 separate 256-byte blocks. */
static void w_readvsep(void)
{
	struct iovec v[16];
	for (int i = 0; i < 16; i++)
		if (!(v[i].iov_base = malloc(256)))
			die("malloc");
		else
			v[i].iov_len = 256;
	LOOP(if (readv(zero_fd, v, 16) != 4096) die("readv"));
}

/* A fresh small block each time: malloc, read 1 B into its start, free. */
static void w_freshread(void)
{
	LOOP(char *p = malloc(64); if (!p || read(zero_fd, p, 1) != 1) die("fresh"); free(p));
}


/* ---- the bounds checks (issue 6) ---- */

/* malloc-heavy: a ring of 64 blocks of 16..4096 bytes, one replaced per
 * iteration; no I/O at all (the allocator wrappers' cost). */
static void w_mallocs(void)
{
	static void *ring[64];
	unsigned r = 2463534242u;
	LOOP(r ^= r << 13; r ^= r >> 17; r ^= r << 5;
	     free(ring[i & 63]); ring[i & 63] = malloc(16 + r % 4081);
	     if (!ring[i & 63]) die("malloc"));
}

/* malloc + free of one size, back to back (issue 16: the cost of the
 * sites and the quarantine on the pair). */
static void w_pair(size_t n)
{
	LOOP(char *p = malloc(n); if (!p) die("malloc"); __asm__ volatile("" : : "r"(p) : "memory"); free(p));
}

/* The same pairs 16 frames down (the allocation traces' walk). */
static __attribute__((noinline)) int pair_deep(int d)
{
	int r;

	if (d == 0) {
		w_pair(16);
		return 0;
	}
	r = pair_deep(d - 1);
	__asm__ volatile("" : : "r"(&r) : "memory");
	return r;
}

/* 1-byte reads into a heap block (the heap check's lookup). */
static void w_heapread(void)
{
	char *p = malloc(64);
	LOOP(if (read(zero_fd, p + (i & 31), 1) != 1) die("read"));
}

/* 1-byte reads into a local buffer (the stack check's frame cache). */
static __attribute__((noinline)) void stack_read(void)
{
	char b[64];
	if (read(zero_fd, b, 1) != 1)
		die("read");
	__asm__ volatile("" : : "r"(b) : "memory");
}

static void w_stackread(void) { LOOP(stack_read()); }

/* 1-byte reads into a static object (the global check's per-thread cache). */
static char gvar[64];
static void w_globalread(void) { LOOP(if (read(zero_fd, gvar + (i & 31), 1) != 1) die("read")); }

static void global_read(void)
{
	if (read(zero_fd, gvar, 1) != 1)
		die("read");
}

/* Short processes that each read once into a static object: what the
 * global check's first look (reading this program's symbols) costs. */
static void w_spawnglobal(void)
{
	char *argv[] = {"rwbench", "oneglobal", NULL};

	LOOP(pid_t pid; int st;
	     if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) != 0) die("spawn");
	     waitpid(pid, &st, 0));
}

/* Short processes that each read once into a stack buffer: what the
 * stack check's first walk (loading libunwind) costs a process. */
static void w_spawnone(void)
{
	char *argv[] = {"rwbench", "one", NULL};
	LOOP(pid_t pid; int st;
	     if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) != 0) die("spawn");
	     waitpid(pid, &st, 0));
}

static void w_small(void)
{
	/* a small program: a few reads and writes, then its peak RSS in KiB */
	for (int i = 0; i < 100; i++)
		if (read(zero_fd, buf, 4096) != 4096 || write(null_fd, buf, 4096) != 4096)
			die("small");
	/* peak resident set, in KiB, from the kernel's own account */
	{
		char line[256];
		FILE *f = fopen("/proc/self/status", "r");
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "VmHWM:", 6) == 0)
				printf("%ld\n", strtol(line + 6, NULL, 10));
		if (f)
			fclose(f);
	}
}

/* The calls that hand the kernel a capacity (issue 15), nothing ready:
 * epoll_wait of an empty set into 64 events, poll of 4 pipe ends, select
 * of one pipe end; each returns at once. */
static void w_epollwait(void)
{
	static struct epoll_event ev[64];
	int ep = epoll_create1(0);
	if (ep < 0)
		die("epoll_create1");
	LOOP(if (epoll_wait(ep, ev, 64, 0) != 0) die("epoll_wait"));
}

static void w_poll4(void)
{
	struct pollfd fds[4];
	int p[2];
	if (pipe(p))
		die("pipe");
	for (int i = 0; i < 4; i++)
		fds[i] = (struct pollfd){.fd = p[0], .events = POLLIN};
	LOOP(if (poll(fds, 4, 0) != 0) die("poll"));
}

static void w_select1(void)
{
	fd_set r;
	struct timeval t;
	int p[2];
	if (pipe(p))
		die("pipe");
	LOOP(FD_ZERO(&r); FD_SET(p[0], &r); t.tv_sec = 0; t.tv_usec = 0;
	     if (select(p[0] + 1, &r, NULL, NULL, &t) != 0) die("select"));
}

/* RWBENCH_PAD=k: k more mappings in the process before the workload.
 * The kernel keeps mappings in a maple tree whose cost for one mmap or
 * munmap depends on where that mapping falls among its nodes: one
 * mapping more or less anywhere (a library, a RELRO split) can move the
 * churn line by 20% either way.  run.py gives each pair of samples its
 * own k, the same on both sides, so the line measures the library's
 * work rather than the luck of one layout. */
static void pad_layout(void)
{
	int k = getenv("RWBENCH_PAD") ? atoi(getenv("RWBENCH_PAD")) : 0;
	char *a;

	if (k <= 0)
		return;
	a = mmap(NULL, (size_t)k * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		die("pad");
	for (int i = 0; i < k; i += 2) /* alternate protections: k separate mappings */
		if (mprotect(a + (size_t)i * 4096, 4096, PROT_NONE) != 0)
			die("pad");
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	iters = argc > 2 ? atol(argv[2]) : 1000000;
	pad_layout();
	zero_fd = open("/dev/zero", O_RDONLY);
	null_fd = open("/dev/null", O_WRONLY);
	if (zero_fd < 0 || null_fd < 0)
		die("open");
	if (!strcmp(w, "read1")) w_read(1);
	else if (!strcmp(w, "read4k")) w_read(4096);
	else if (!strcmp(w, "read64k")) w_read(65536);
	else if (!strcmp(w, "write1")) w_write1();
	else if (!strcmp(w, "pread4k")) w_pread4k();
	else if (!strcmp(w, "readv16")) w_readv16();
	else if (!strcmp(w, "threads2")) w_threads2();
	else if (!strcmp(w, "mmapchurn")) w_mmapchurn();
	else if (!strcmp(w, "manymaps")) w_manymaps();
	else if (!strcmp(w, "spawn")) w_spawn();
	else if (!strcmp(w, "small")) w_small();
	else if (!strcmp(w, "mallocs")) w_mallocs();
	else if (!strcmp(w, "heapread")) w_heapread();
	else if (!strcmp(w, "stackread")) w_stackread();
	else if (!strcmp(w, "globalread")) w_globalread();
	else if (!strcmp(w, "spawnglobal")) w_spawnglobal();
	else if (!strcmp(w, "oneglobal")) global_read();
	else if (!strcmp(w, "spawnone")) w_spawnone();
	else if (!strcmp(w, "heapmid")) w_heapmid();
	else if (!strcmp(w, "heapwrite1")) w_heapwrite1();
	else if (!strcmp(w, "readvblock")) w_readvblock();
	else if (!strcmp(w, "readvsep")) w_readvsep();
	else if (!strcmp(w, "freshread")) w_freshread();
	else if (!strcmp(w, "pair16")) w_pair(16);
	else if (!strcmp(w, "pair256")) w_pair(256);
	else if (!strcmp(w, "pair4k")) w_pair(4096);
	else if (!strcmp(w, "pairdeep")) pair_deep(16);
	else if (!strcmp(w, "one")) stack_read();
	else if (!strcmp(w, "epollwait")) w_epollwait();
	else if (!strcmp(w, "poll4")) w_poll4();
	else if (!strcmp(w, "select1")) w_select1();
	else {
		fprintf(stderr, "usage: rwbench WORKLOAD [ITERATIONS]\n");
		return 2;
	}
	return 0;
}
