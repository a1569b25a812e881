/* victim_maps.c: the victim's cases where the memory map changes under
 * the library (see victim.c, which runs them): munmap, mprotect, free and
 * dlclose after a good call, memory mapped behind its back, odd file
 * names and tens of thousands of mappings in the map, and the library's
 * first contact (the first_* cases run before setup()). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <spawn.h>
#include <time.h>
#include <unistd.h>

#include "victim.h"
#include "victim_parts.h"

/* ---- the map changing under the library -------------------------- */
static void twice(char *b, size_t n, void (*change)(char *))
{
	ret = read(file_fd, b, n); /* good: warms the map view */
	lseek(file_fd, 0, SEEK_SET);
	if (bad)
		change(b);
}
static void ch_munmap(char *b) { munmap(b, 4096); }
static void ch_raw_munmap(char *b) { syscall(SYS_munmap, b, 4096); }
static void ch_mprotect(char *b) { mprotect(b, 4096, PROT_READ); }
static void ch_raw_mprotect(char *b) { syscall(SYS_mprotect, b, 4096, PROT_READ); }
static void ch_free(char *b) { free(b); }
static char *page(void) { return mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }
static void c_stale_munmap(void) { char *b = page(); twice(b, 10, ch_munmap); SITE(); ret = read(file_fd, b, 10); }
static void c_stale_raw_munmap(void) { char *b = page(); twice(b, 10, ch_raw_munmap); SITE(); ret = read(file_fd, b, 10); }
static void c_stale_mprotect(void) { char *b = page(); twice(b, 10, ch_mprotect); SITE(); ret = read(file_fd, b, 10); }
static void c_stale_raw_mprotect(void) { char *b = page(); twice(b, 10, ch_raw_mprotect); SITE(); ret = read(file_fd, b, 10); }
static void c_stale_free(void) { char *b = malloc(1 << 20); twice(b, 10, ch_free); SITE(); ret = read(file_fd, b, 10); }
/* The heap grown (news the view takes), then trimmed by free: a read
 * above the new break, where the heap was, is into nothing (bad); the
 * good twin reads the last block still there. */
static char *blocks[3000];
static void c_stale_trim(void)
{
	char *top, *b;
	int i;

	ret = read(file_fd, small, 10); /* the view is current */
	lseek(file_fd, 0, SEEK_SET);
	for (i = 0; i < 3000; i++)
		blocks[i] = malloc(2000); /* (above the tcache sizes) */
	free(malloc(16)); /* a free that sees the grown heap */
	ret = read(file_fd, blocks[2999], 10);
	lseek(file_fd, 0, SEEK_SET);
	top = sbrk(0);
	for (i = bad ? 2999 : 2998; i >= 0; i--)
		free(blocks[i]); /* glibc trims the top of the heap */
	b = bad ? top - 8192 : blocks[2999];
	if (bad && (char *)sbrk(0) > b)
		die("the heap was not trimmed");
	SITE(); ret = read(file_fd, b, 10);
}
static void c_stale_dlclose(void)
{
	const char *path = getenv("RWC_PLUGIN");
	void *h = dlopen(path, RTLD_NOW);
	char *b;
	if (!h)
		die("dlopen");
	b = dlsym(h, "plug_buffer");
	ret = read(file_fd, b, 10);
	lseek(file_fd, 0, SEEK_SET);
	if (bad)
		dlclose(h);
	SITE(); ret = read(file_fd, b, 10);
}

/* Memory the library was not told about: never a false report. */
static void c_new_raw_mmap(void)
{
	char *b;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
	b = (char *)syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	SITE(); ret = read(file_fd, b, 10);
}
#ifdef __x86_64__
/* Arch-specific: a system call the library cannot see at all. */
static long asm_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return r;
}
#endif
static void c_new_asm_mmap(void)
{
	char *b;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
#ifdef __x86_64__
	b = (char *)asm_syscall6(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#else
	b = (char *)syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#endif
	SITE(); ret = read(file_fd, b, 10);
}
static void c_new_asm_mprotect(void)
{
	char *b = page();
	mprotect(b, 4096, PROT_READ);
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
#ifdef __x86_64__
	asm_syscall6(SYS_mprotect, (long)b, 4096, PROT_READ | PROT_WRITE, 0, 0, 0);
#else
	syscall(SYS_mprotect, b, 4096, PROT_READ | PROT_WRITE);
#endif
	SITE(); ret = read(file_fd, b, 10);
}
static void c_new_malloc_large(void)
{
	char *b;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
	b = malloc(4 << 20);
	SITE(); ret = read(file_fd, b + (4 << 20) - 10, 10);
}
static void c_new_brk(void)
{
	char *b = NULL;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
	for (int i = 0; i < 2000; i++)
		b = malloc(1000); /* grows the heap with brk, inside malloc */
	SITE(); ret = read(file_fd, b, 10);
}
static void c_new_mremap(void)
{
	char *b = page();
	ret = read(file_fd, b, 10);
	lseek(file_fd, 0, SEEK_SET);
	b = mremap(b, 4096, 8 * 4096, MREMAP_MAYMOVE);
	SITE(); ret = read(file_fd, b + 7 * 4096, 10);
}
static void c_new_dlopen(void)
{
	void *h;
	char *b;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
	h = dlopen(getenv("RWC_PLUGIN"), RTLD_NOW);
	if (!h)
		die("dlopen");
	b = dlsym(h, "plug_buffer");
	SITE(); ret = read(file_fd, b, 10);
}
static void *thread_reader(void *arg)
{
	char b[64];
	(void)arg;
	SITE(); ret = read(file_fd, b, sizeof b);
	return NULL;
}
static void c_new_thread_stack(void)
{
	pthread_t t;
	ret = read(file_fd, small, 10);
	lseek(file_fd, 0, SEEK_SET);
	pthread_create(&t, NULL, thread_reader, NULL);
	pthread_join(t, NULL);
}

/* ---- odd paths in the map: spaces, a newline, a deleted file ------- */
static char *map_file(const char *dir, const char *name, int unlink_it)
{
	char path[512];
	int fd;
	char *p;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		die("odd file");
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (unlink_it)
		unlink(path);
	return p;
}
static void c_oddpaths(void)
{
	char dir[] = "/tmp/rwcheck-odd-XXXXXX";
	char *a, *b, *c;

	if (!mkdtemp(dir))
		die("mkdtemp");
	a = map_file(dir, "with space", 0);
	b = map_file(dir, "new\nline", 0);
	c = map_file(dir, "gone", 1);
	if (bad) { /* read-only file mappings: reads into them are bad */
		SITE(); ret = read(file_fd, a, 10); lseek(file_fd, 0, SEEK_SET);
		SITE(); ret = read(file_fd, b, 10); lseek(file_fd, 0, SEEK_SET);
		SITE(); ret = read(file_fd, c, 10);
	} else {   /* writes from them are fine */
		ret = write(null_fd, a, 4096) + write(null_fd, b, 4096) + write(null_fd, c, 4096);
	}
	{
		char path[512];
		snprintf(path, sizeof path, "%s/with space", dir);
		unlink(path);
		snprintf(path, sizeof path, "%s/new\nline", dir);
		unlink(path);
		rmdir(dir);
	}
}

/* ---- tens of thousands of mappings ---------------------------------- */
static void c_manymaps(void)
{
	enum { MAPS = 30000 };
	char *area = mmap(NULL, (size_t)MAPS * 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (area == MAP_FAILED)
		die("area");
	munmap(area, (size_t)MAPS * 2 * 4096);
	for (int i = 0; i < MAPS; i++)
		if (mmap(area + (size_t)i * 2 * 4096, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
			die("mmap");
	/* good: the last mapping; bad: from the last-but-one into the gap after it */
	ret = read(file_fd, area + (size_t)(MAPS - 1) * 2 * 4096, 10);
	lseek(file_fd, 0, SEEK_SET);
	if (bad) {
		SITE(); ret = read(file_fd, area + (size_t)(MAPS - 2) * 2 * 4096 + 4096 - 100, 4096);
	}
}

/* ---- the library's first contact (these cases run before setup()) ---
 * The library maps its own memory at its first need.  When that is a
 * hole the program makes, the memory must not then land in the hole (a
 * read into the hole would go unreported, into the library's memory);
 * when it is a vfork or fork child, the parent's and the child's reports
 * must each be made as before. */
#define HOLE (64 << 20)
static int first_fd(void)
{
	int fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		die("/dev/zero");
	return fd;
}
/* A mapping the library did not see made (syscall() mmap: not a first need). */
static char *unseen_mapping(void)
{
	char *p = (char *)syscall(SYS_mmap, NULL, HOLE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	return p;
}
static void c_first_munmap(void)
{
	int fd = first_fd();
	char *p = unseen_mapping();
	munmap(p, HOLE);
	SITE(); ret = read(fd, bad ? p + HOLE - 4096 : small, 10);
}
static void c_first_raw_munmap(void)
{
	int fd = first_fd();
	char *p = unseen_mapping();
	syscall(SYS_munmap, p, HOLE);
	SITE(); ret = read(fd, bad ? p + HOLE - 4096 : small, 10);
}
static void c_first_free(void)
{
	int fd = first_fd();
	char *p = malloc(HOLE); /* glibc maps it itself */
	void (*volatile release)(void *) = free; /* (the use after free is the point) */
	if (!p)
		die("malloc");
	release(p);
	SITE(); ret = read(fd, bad ? p + HOLE - 8192 : small, 10);
}
/* The first checks ask the kernel for single mappings and the thread's
 * cache keeps them (mapview.c): a read into the heap's top, then free()
 * trims the heap below it (brk), then a read there is into nothing (bad:
 * the cache must have let the heap go); the good twin reads a block
 * still there. */
static void c_first_trim(void)
{
	int fd = first_fd();
	char *a[8];
	void (*volatile release)(void *) = free;
	for (int i = 0; i < 8; i++)
		if (!(a[i] = malloc(60000)))
			die("malloc");
	if (read(fd, a[7] + 40000, 10) != 10)
		die("read");
	for (int i = bad ? 0 : 1; i < 8; i++)
		release(a[i]);
	SITE(); ret = read(fd, bad ? a[7] + 40000 : a[0], 10);
}
/* A process's first checks take what the loader mapped and what malloc
 * handed out on their word (mapview/vouch.c, bounds.c rwc_bounds_vouch)
 * -- unless the program changed the map there itself.  Each bad case
 * changes a page (munmap, mprotect, by syscall() too) and reads into it
 * as its first checked call; the good twin reads there unchanged, or
 * writes from memory only readable. */
static char vouch_bss[3 * 4096] __attribute__((aligned(4096)));
static const char *const vouch_relro[4] = {"relro", "after", "relocation", "."};
static char *vouch_page(char *p) { return (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095); }
static void c_first_vouch_bss_munmap(void)
{
	int fd = first_fd();
	if (bad)
		munmap(vouch_bss + 4096, 4096);
	SITE(); ret = read(fd, vouch_bss + 4096 + 100, 10);
}
static void c_first_vouch_bss_mprotect(void)
{
	int fd = first_fd();
	if (bad)
		syscall(SYS_mprotect, vouch_bss + 4096, 4096, PROT_READ);
	SITE(); ret = read(fd, vouch_bss + 4096 + 100, 10);
}
static void c_first_vouch_relro(void)
{
	int fd = first_fd(), out = open("/dev/null", O_WRONLY);
	if (bad) {
		SITE(); ret = read(fd, (void *)vouch_relro, 10);
	} else {
		SITE(); ret = write(out, vouch_relro, 10);
	}
}
static void c_first_vouch_text(void)
{
	int fd = first_fd(), out = open("/dev/null", O_WRONLY);
	void *code = (void *)(uintptr_t)c_first_vouch_text;
	if (bad) {
		SITE(); ret = read(fd, code, 10);
	} else {
		SITE(); ret = write(out, code, 10);
	}
}
static void c_first_vouch_heap_mprotect(void)
{
	int fd = first_fd();
	char *p = aligned_alloc(4096, 3 * 4096);
	if (!p)
		die("aligned_alloc");
	if (bad)
		mprotect(p + 4096, 4096, PROT_READ);
	SITE(); ret = read(fd, p + 4096 + 100, 10);
}
static void c_first_vouch_heap_munmap(void)
{
	int fd = first_fd();
	char *p = malloc(1 << 20), *q; /* (glibc maps it itself) */
	if (!p)
		die("malloc");
	q = vouch_page(p + 65536);
	if (bad)
		syscall(SYS_munmap, q, 4096);
	SITE(); ret = read(fd, q + 100, 10);
}
static NOINLINE void vouch_stack(void)
{
	char a[3 * 4096], *q = vouch_page(a);
	int fd = first_fd();
	if (bad)
		mprotect(q, 4096, PROT_READ);
	SITE(); ret = read(fd, q + 100, 10);
	if (bad)
		mprotect(q, 4096, PROT_READ | PROT_WRITE);
}
static void c_first_vouch_stack(void) { vouch_stack(); }
/* The program's own overrun writes the next block's chunk header (a
 * size of 2 MiB, "mmapped"): the first checks take no mapping from it,
 * so a read above the program break is still one into nothing. */
static void c_first_vouch_forged_header(void)
{
	int fd = first_fd();
	char *a = malloc(24), *b = malloc(24);
	uintptr_t past = ((uintptr_t)sbrk(0) + 0x10000) & ~(uintptr_t)4095;

	if (!a || !b)
		die("malloc");
	memset(a + 16, 0, 8);
	*(size_t *)(void *)(a + 24) = 0x200000 | 2;
	if (read(fd, b, 10) != 10)
		die("read");
	SITE(); ret = read(fd, bad ? (char *)past : small, 10);
}
/* The program break cannot grow (a mapping right above it): glibc's main
 * arena goes on in mappings of its own, which the bottom-up layout
 * (setarch -L) puts below the break; a block there vouches for nothing
 * between it and the break (a read into the program's code is reported). */
static void c_first_vouch_brk_blocked(void)
{
	int fd = first_fd();
	uintptr_t top = ((uintptr_t)sbrk(0) + 4095) & ~(uintptr_t)4095;
	char *p = NULL;

	if (mmap((void *)top, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)top)
		die("mmap");
	for (int i = 0; i < 100 && (!p || (uintptr_t)p < top); i++)
		if (!(p = malloc(60000)))
			die("malloc");
	if (read(fd, p, 100) != 100)
		die("read");
	SITE(); ret = read(fd, bad ? (char *)(uintptr_t)c_first_vouch_brk_blocked : small, 10);
}
/* The heap vouched for up to a break the view never took (malloc grew
 * it, no free since), then one free trims it back to the break the view
 * had: the thread's cache must let the trimmed range go (else the
 * library reads the iovec array there itself and faults).  A worker
 * reads into the block (no fresh-block slot of its own for it), the main
 * thread frees it, the worker calls readv.  Bad: the array in the
 * trimmed range (iov-array-bad); good: on the worker's stack.  (Without
 * the quarantine: the free reaches glibc at once.) */
static sem_t trim_go, trim_done, trim_go2;
static char *trim_p;
static int trim_fd;
static void *trim_worker(void *arg)
{
	struct iovec mine = {small, 10}, *iov = &mine;

	(void)arg;
	sem_wait(&trim_go);
	if (read(trim_fd, trim_p + (4 << 20) - 100, 100) != 100) /* vouched: the heap up to the break */
		die("read");
	sem_post(&trim_done);
	sem_wait(&trim_go2);
	if (bad)
		iov = (struct iovec *)(void *)(trim_p + (2 << 20));
	SITE(); ret = readv(trim_fd, iov, 1);
	return NULL;
}
static void c_first_vouch_trim(void)
{
	char *volatile nowhere = (char *)16, *q;
	void (*volatile release)(void *) = free; /* (the trimmed range is the point) */
	pthread_t t;

	trim_fd = first_fd();
	mallopt(M_MMAP_THRESHOLD, 64 << 20); /* (a 4 MiB block from the break) */
	sem_init(&trim_go, 0, 0), sem_init(&trim_done, 0, 0), sem_init(&trim_go2, 0, 0);
	if (pthread_create(&t, NULL, trim_worker, NULL) != 0)
		die("pthread_create");
	if (read(trim_fd, nowhere, 8) >= 0) /* a bad buffer: the view makes a snapshot */
		die("read");
	q = malloc(16);
	release(q); /* the view takes the break */
	if (!(trim_p = malloc(4 << 20)))
		die("malloc");
	sem_post(&trim_go);
	sem_wait(&trim_done);
	release(trim_p); /* the heap trimmed back in one free */
	sem_post(&trim_go2);
	pthread_join(t, NULL);
}
static void c_first_vfork(void)
{
	int fd = first_fd();
	char *b = bad ? (char *)"in .rodata: not writable" : small;
	pid_t pid = vfork();
	if (pid == 0) {
		if (read(fd, b, 10) < 0) /* reported in safe mode, under the child's pid */
			_exit(1);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("vfork child %d\n", (int)pid);
	SITE(); ret = read(fd, b, 10); /* reported as usual */
}
static void c_first_fork(void)
{
	int fd = first_fd(), st = 0;
	char *b = bad ? (char *)"in .rodata: not writable" : small;
	pid_t pid = fork();
	if (pid == 0) {
		SITE(); ret = read(fd, b, 10); /* reported as usual, under the child's pid */
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("fork child %d %d\n", (int)pid, st);
	ret = 0;
}
/* Four threads whose first calls race for the first need: a thread that
 * finds another mapping the memory goes on without it. */
static pthread_barrier_t first_go;
static void *first_worker(void *arg)
{
	int fd = (int)(intptr_t)arg;
	long sum = 0;
	char b[64];
	pthread_barrier_wait(&first_go);
	for (int i = 0; i < 2000; i++) {
		if (read(fd, b, sizeof b) != (ssize_t)sizeof b)
			return (void *)-1L;
		sum += b[i % 64];
	}
	if (bad && read(fd, (char *)"in .rodata: not writable", 10) >= 0)
		return (void *)-1L;
	return (void *)sum;
}
static void c_first_threads(void)
{
	pthread_t t[4];
	long total = 0;
	int fd = first_fd();
	pthread_barrier_init(&first_go, NULL, 4);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, first_worker, (void *)(intptr_t)fd);
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (long)r;
	}
	ret = total; /* 0: every read returned zeroes, the bad ones failed */
}
/* A raw clone() child's read, after the parent's first need or not: no
 * fork handler nor fork() of the library runs in the child.  Made before
 * the first need, the child maps the memory itself; after it, the child
 * finds the per-process pages wiped.  Either way kcmp tells it is no vfork
 * child (reported as usual), and where kcmp is not allowed it is taken for
 * one (safe mode). */
static NOINLINE void rawfork(int first_need)
{
	int fd = first_fd(), st = 0;
	char *b = bad ? (char *)"in .rodata: not writable" : small;
	pid_t pid;
	if (first_need && read(fd, small, 10) != 10)
		die("read");
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		SITE(); ret = read(fd, b, 10);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("fork child %d %d\n", (int)pid, st);
	ret = 0;
}
static void c_first_rawfork(void) { rawfork(0); }
static void c_later_rawfork(void) { rawfork(1); }
/* A fork() child that makes good calls, then a vfork child of its own
 * whose call is bad, then a bad call of its own: the vfork child must not
 * take the fork child's state (safe mode in the vfork child only). */
static void c_fork_vfork(void)
{
	int fd = first_fd(), st = 0;
	char *b = bad ? (char *)"in .rodata: not writable" : small;
	pid_t pid;
	if (read(fd, small, 10) != 10) /* the parent's first need */
		die("read");
	pid = fork();
	if (pid == 0) {
		pid_t v;
		for (int i = 0; i < 10; i++)
			if (read(fd, small, 10) != 10)
				_exit(3);
		v = vfork();
		if (v == 0) {
			if (read(fd, b, 10) < 0) /* reported in safe mode */
				_exit(1);
			_exit(0);
		}
		waitpid(v, NULL, 0);
		printf("vfork child %d\n", (int)v);
		SITE(); ret = read(fd, b, 10); /* reported as usual */
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("fork child %d %d\n", (int)pid, st);
	ret = 0;
}

const struct victim_case victim_map_cases[] = {
	VCASE(stale_munmap), VCASE(stale_raw_munmap), VCASE(stale_mprotect), VCASE(stale_raw_mprotect),
	VCASE(stale_free), VCASE(stale_trim), VCASE(stale_dlclose), VCASE(new_raw_mmap), VCASE(new_asm_mmap),
	VCASE(new_asm_mprotect), VCASE(new_malloc_large), VCASE(new_brk), VCASE(new_mremap),
	VCASE(new_dlopen), VCASE(new_thread_stack), VCASE(oddpaths), VCASE(manymaps), VCASE(first_munmap), VCASE(first_trim),
	VCASE(first_raw_munmap), VCASE(first_free), VCASE(first_vouch_bss_munmap), VCASE(first_vouch_bss_mprotect),
	VCASE(first_vouch_relro), VCASE(first_vouch_text), VCASE(first_vouch_heap_mprotect),
	VCASE(first_vouch_heap_munmap), VCASE(first_vouch_stack), VCASE(first_vouch_forged_header),
	VCASE(first_vouch_brk_blocked), VCASE(first_vouch_trim), VCASE(first_vfork), VCASE(first_fork),
	VCASE(first_rawfork), VCASE(first_threads), VCASE(later_rawfork), VCASE(fork_vfork),
};
const size_t victim_map_ncases = sizeof victim_map_cases / sizeof victim_map_cases[0];
