/* victim_global.c: calls whose buffer lies in a global or static object,
 * good or bad, for tests/globals.py.  Same protocol as victim_bounds.c:
 *
 *   victim_global CASE good|bad
 *
 * prints "site FUNCTION LINE" for the call under test, "object NAME SIZE
 * ADDR" for the object it uses, and "result RET ERRNO".  Built -O0 -g,
 * -O2 -g, -O2 -D_FORTIFY_SOURCE=2, -no-pie, and exported (-rdynamic,
 * VICTIM_EXPORT: the objects are not static) then stripped of .symtab.
 * The counts come from a volatile, so that the compiler does not refuse
 * or rewrite the bad calls; the file read is 10 bytes long, so every call
 * succeeds. */
#define _GNU_SOURCE
#ifdef VICTIM_O0
#pragma GCC optimize("O0") /* the build's CFLAGS (-O2) come after ours */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef VICTIM_EXPORT
#define STATIC /* in .dynsym with -rdynamic */
#else
#define STATIC static
#endif

#include <sys/auxv.h>

#include "victim.h"

#define CASE(n) STATIC NOINLINE void c_##n(void); /* named in .dynsym too */ \
	STATIC NOINLINE void c_##n(void)

static int bad;
static int file_fd; /* a 10-byte file */
static int null_fd; /* /dev/null */
static ssize_t ret;
static volatile size_t k_hdr = 32, k_table = 24, k_grid = 40, k_banner = 16, k_lib = 40, k_iov = 16, k_hidden = 16;

STATIC char hdr[32];                                          /* .bss */
STATIC char table[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}; /* .data */
STATIC char grid[4][16];                                      /* rows */
STATIC const char banner[16] = "global banner!\n";            /* .rodata */
STATIC char vec_a[16], vec_b[16];
static __thread char tls_buf[16];

/* An object of size 0 (as `extern char x[]` gives) before 64 bytes no
 * symbol covers. */
__asm__(".data\n"
	".globl victim_zero\n"
	".type victim_zero, @object\n"
	".size victim_zero, 0\n"
	"victim_zero:\n"
	".zero 64\n"
	".text\n");
extern char victim_zero[];

/* Two symbols that overlap: victim_ov (32 bytes) and victim_ov_tail (32
 * bytes from its byte 16): judged as one object of 48 bytes, never
 * smaller than a symbol covering the buffer says. */
__asm__(".data\n"
	".p2align 4\n"
	".globl victim_ov\n"
	".type victim_ov, @object\n"
	".size victim_ov, 32\n"
	"victim_ov:\n"
	".zero 16\n"
	".globl victim_ov_tail\n"
	".type victim_ov_tail, @object\n"
	".size victim_ov_tail, 32\n"
	"victim_ov_tail:\n"
	".zero 32\n"
	".text\n");
extern char victim_ov[];

static void object(const char *name, const void *p, size_t size)
{
	printf("object %s %zu %p\n", name, size, p);
}

CASE(bss)
{
	object("hdr", hdr, sizeof hdr);
	SITE(); ret = read(file_fd, hdr, bad ? 128 : k_hdr);
}

CASE(data)
{
	object("table", table, sizeof table);
	SITE(); ret = read(file_fd, table, bad ? 100 : k_table);
}

/* A row read past its end stays inside the array: never a report.  The
 * bad mode reads past the whole array. */
CASE(rows)
{
	object("grid", grid, sizeof grid);
	SITE(); ret = read(file_fd, grid[bad ? 2 : 1], bad ? 64 : k_grid);
}

/* write-like: the bytes past the object are read. */
CASE(rodata)
{
	object("banner", banner, sizeof banner);
	SITE(); ret = write(null_fd, banner, bad ? 64 : k_banner);
}

CASE(readv)
{
	struct iovec v[2] = {{vec_a, 8}, {vec_b, bad ? 48 : k_iov}};

	object("vec_b", vec_b, sizeof vec_b);
	SITE(); ret = readv(file_fd, v, 2);
}

/* The same call site good a few times (the per-thread cache learns the
 * object), then with the mode's count. */
static NOINLINE ssize_t warm_read(size_t n)
{
	return read(file_fd, hdr, n);
}

CASE(warm)
{
	for (int i = 0; i < 4; i++)
		if (warm_read(k_hdr) < 0 || lseek(file_fd, 0, SEEK_SET) != 0)
			exit(98);
	object("hdr", hdr, sizeof hdr);
	SITE(); ret = read(file_fd, hdr, bad ? 128 : k_hdr);
}

/* A global of a shared library (tests/globlib.c), opened with dlopen. */
CASE(lib)
{
	const char *path = getenv("RWC_GLOBLIB");
	void *h = path ? dlopen(path, RTLD_NOW) : NULL;
	char *(*get)(void) = h ? (char *(*)(void))dlsym(h, "globlib_buffer") : NULL;
	char *p;

	if (!get)
		exit(97);
	p = get();
	object("globlib_buf", p, 40);
	SITE(); ret = read(file_fd, p, bad ? 80 : k_lib);
}

/* The library read into, closed, opened again (maybe elsewhere), read
 * into with the mode's count. */
CASE(lib_reopen)
{
	const char *path = getenv("RWC_GLOBLIB");
	void *h = path ? dlopen(path, RTLD_NOW) : NULL;
	char *(*get)(void) = h ? (char *(*)(void))dlsym(h, "globlib_buffer") : NULL;
	char *p;

	if (!get || read(file_fd, get(), 40) != 10 || lseek(file_fd, 0, SEEK_SET) != 0 || dlclose(h) != 0)
		exit(97);
	h = dlopen(path, RTLD_NOW);
	get = h ? (char *(*)(void))dlsym(h, "globlib_buffer") : NULL;
	if (!get)
		exit(97);
	p = get();
	object("globlib_buf", p, 40);
	SITE(); ret = read(file_fd, p, bad ? 80 : k_lib);
}

/* A copy of the library (RWC_GLOBLIB_COPY), its objects read by a good
 * call; then, with RWC_GLOBLIB_OTHER set, another file renamed over the
 * copy before the mode's read: the object's name is no longer to be had
 * from the file (its reports say the object without it). */
CASE(lib_replaced)
{
	const char *path = getenv("RWC_GLOBLIB_COPY"), *other = getenv("RWC_GLOBLIB_OTHER");
	void *h = path ? dlopen(path, RTLD_NOW) : NULL;
	char *(*get)(void) = h ? (char *(*)(void))dlsym(h, "globlib_buffer") : NULL;
	char *p;

	if (!get || read(file_fd, get(), 40) != 10 || lseek(file_fd, 0, SEEK_SET) != 0 ||
	    (other && rename(other, path) != 0))
		exit(97);
	p = get();
	object("globlib_buf", p, 40);
	SITE(); ret = read(file_fd, p, bad ? 80 : k_lib);
}

/* Static in every build: without .symtab no symbol covers it (no
 * verdict); with it, it is judged like the others. */
static char hidden[16];

CASE(hidden)
{
	object("hidden", hidden, sizeof hidden);
	SITE(); ret = read(file_fd, hidden, bad ? 48 : k_hidden);
}

/* Never a report: a size-0 object, a TLS variable. */
CASE(zero)
{
	SITE(); ret = read(file_fd, victim_zero, bad ? 64 : 8);
}

CASE(tls)
{
	SITE(); ret = read(file_fd, tls_buf, bad ? 64 : 16);
}

CASE(overlap)
{
	object("victim_ov", victim_ov, 48);
	SITE(); ret = read(file_fd, victim_ov, bad ? 64 : 48);
}

/* Four threads, each a read into its own object at once, before anything
 * loaded the program's objects: one of them loads, the others wait or
 * find them loaded; every bad read is reported. */
STATIC char t_obj0[24], t_obj1[24], t_obj2[24], t_obj3[24];
static pthread_barrier_t t_bar;

static void *t_read(void *p)
{
	pthread_barrier_wait(&t_bar);
	if (pread(file_fd, p, bad ? 64 : 24, 0) != 10)
		_exit(95);
	return NULL;
}

CASE(threads)
{
	char *objs[4] = {t_obj0, t_obj1, t_obj2, t_obj3};
	pthread_t t[4];

	pthread_barrier_init(&t_bar, NULL, 4);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, t_read, objs[i]) != 0)
			exit(94);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ret = 10;
}

/* A read into hdr from a signal handler, before anything loaded the
 * program's objects (a handler may not load: no verdict), then the same
 * from the case itself. */
static void on_usr1(int sig)
{
	(void)sig;
	if (read(file_fd, hdr, bad ? 128 : k_hdr) < 0 || lseek(file_fd, 0, SEEK_SET) != 0)
		_exit(96);
}

CASE(handler)
{
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	object("hdr", hdr, sizeof hdr);
	SITE(); ret = read(file_fd, hdr, bad ? 128 : k_hdr);
}

/* The program's objects loaded by a good read, then the mode's read from
 * a signal handler on an 8 KiB alternate stack with a guard page below
 * it: a handler may name an object it did not load, without running
 * off its small stack. */
CASE(handler_named)
{
	char *stk = mmap(NULL, 4096 + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = {.ss_sp = stk + 4096, .ss_size = 8192};
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_ONSTACK};

	if (stk == MAP_FAILED || mprotect(stk, 4096, PROT_NONE) != 0 || sigaltstack(&ss, NULL) != 0 ||
	    sigaction(SIGUSR1, &sa, NULL) != 0 || read(file_fd, hdr, k_hdr) != 10 || lseek(file_fd, 0, SEEK_SET) != 0)
		exit(97);
	object("hdr", hdr, sizeof hdr);
	SITE(); raise(SIGUSR1);
	ret = 0;
}

/* The library opened by a relative name (from its directory), read into
 * well, then the program moves to / before the mode's read: the object
 * is still named (its file was taken by its absolute name). */
CASE(lib_chdir)
{
	const char *path = getenv("RWC_GLOBLIB");
	char dir[4096];
	const char *slash = path ? strrchr(path, '/') : NULL;
	void *h;
	char *(*get)(void);
	char *p, rel[4200];

	if (!slash || (size_t)(slash - path) >= sizeof dir)
		exit(97);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	snprintf(rel, sizeof rel, ".%s", slash);
	if (chdir(dir) != 0 || !(h = dlopen(rel, RTLD_NOW)) ||
	    !(get = (char *(*)(void))dlsym(h, "globlib_buffer")) || read(file_fd, get(), 40) != 10 ||
	    lseek(file_fd, 0, SEEK_SET) != 0 || chdir("/") != 0)
		exit(97);
	p = get();
	object("globlib_buf", p, 40);
	SITE(); ret = read(file_fd, p, bad ? 80 : k_lib);
}

/* Reads into two anonymous pages with a hole between them (the global
 * check then knows the run they and the hole make as no module's), then
 * the library opened into the hole and its global read into: judged. */
CASE(lib_in_hole)
{
	const char *path = getenv("RWC_GLOBLIB");
	size_t pg = 4096, hole = (size_t)64 << 20;
	char *lo = mmap(NULL, hole + 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *hi, *p;
	char *(*get)(void);
	void *h;

	if (lo == MAP_FAILED || munmap(lo + pg, hole) != 0)
		exit(97);
	/* the heap grown and kept now: dlopen's allocations move no break */
	mallopt(M_TOP_PAD, 16 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	free(malloc(1));
	hi = lo + pg + hole;
	for (int i = 0; i < 20; i++) /* past the first checks' queries: a snapshot */
		if (read(file_fd, lo, 1) != 1 || lseek(file_fd, 0, SEEK_SET) != 0)
			exit(97);
	if (read(file_fd, hi, 1) != 1 || lseek(file_fd, 0, SEEK_SET) != 0)
		exit(97);
	h = path ? dlopen(path, RTLD_NOW) : NULL;
	get = h ? (char *(*)(void))dlsym(h, "globlib_buffer") : NULL;
	if (!get)
		exit(97);
	p = get();
	/* a good read first: the view learns the library's mapping (where it
	 * thought a hole) and moves the generation on; the mode's read then
	 * finds it mapped in the thread's cache, and the global check's own
	 * cache must not say "no module here" */
	if (read(file_fd, p, 40) != 10 || lseek(file_fd, 0, SEEK_SET) != 0)
		exit(97);
	printf("hole %p %p\n", (void *)(lo + pg), (void *)hi);
	object("globlib_buf", p, 40);
	SITE(); ret = read(file_fd, p, bad ? 80 : k_lib);
}

/* The program's file replaced after it started (RWC_OTHER_EXE renamed
 * over the name it was run by) before its first global check: its
 * objects are still its own (read through /proc/self/exe), not the new
 * file's. */
CASE(exe_replaced)
{
	const char *other = getenv("RWC_OTHER_EXE"), *self = (const char *)getauxval(AT_EXECFN);

	if (!other || !self || rename(other, self) != 0)
		exit(98);
	SITE(); ret = read(file_fd, hdr, bad ? k_hdr + 8 : k_hdr);
}

static const struct victim_case cases[] = {
	VCASE(bss), VCASE(data), VCASE(rows), VCASE(rodata), VCASE(readv), VCASE(warm), VCASE(lib),
	VCASE(lib_reopen), VCASE(lib_replaced), VCASE(hidden), VCASE(zero), VCASE(tls), VCASE(handler), VCASE(handler_named), VCASE(lib_chdir), VCASE(overlap),
	VCASE(threads), VCASE(lib_in_hole), VCASE(exe_replaced),
};

int main(int argc, char **argv)
{
	char ten[11] = "0123456789"; /* not in the program's image: nothing loaded before the case */
	int i = victim_pick(argc, argv, "victim_global", cases, &bad);

	if (i < 0)
		return 2;
	file_fd = victim_file("victim_global", ten, 10, 0);
	null_fd = open("/dev/null", O_WRONLY);
	if (file_fd < 0 || null_fd < 0)
		return 99;
	errno = 0;
	cases[i].fn();
	victim_result(ret, errno);
	return 0;
}
