/* victim.c: makes one interposed call, good or bad, for the tests.
 *
 *   victim ENTRY MODE
 *
 * ENTRY is an entry point (read, pread64, __recv_chk, recvmsg, syscall-read,
 * ...) or a named scenario (see the table at the end); MODE is "good" (a
 * valid buffer) or "bad" (a 4096-byte request whose bytes 100..4095 lie in
 * unmapped memory; for vector calls that is segment 1).  It prints
 *   site FUNCTION LINE    (the line of the call, for the caller assertions)
 *   result RET ERRNO      (what the call returned)
 * Built with -O0 -g so that the call's line is exact. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
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

extern ssize_t __read_chk(int, void *, size_t, size_t);
extern ssize_t __pread_chk(int, void *, size_t, off_t, size_t);
extern ssize_t __pread64_chk(int, void *, size_t, off64_t, size_t);
extern ssize_t __recv_chk(int, void *, size_t, size_t, int);
extern ssize_t __recvfrom_chk(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *);
extern size_t __fread_chk(void *, size_t, size_t, size_t, FILE *);
extern size_t __fread_unlocked_chk(void *, size_t, size_t, size_t, FILE *);
extern char *__fgets_chk(char *, size_t, int, FILE *);
extern char *__fgets_unlocked_chk(char *, size_t, int, FILE *);

#define N 4096

extern char **environ;

static int bad;           /* MODE is "bad" */
static int file_fd;       /* a 10-byte file */
static int null_fd;       /* /dev/null */
static int sock[2];       /* stream socketpair, 10 bytes waiting on sock[0] */
static char small[16];    /* segment 0 of vector calls */
static ssize_t ret;

static void die(const char *what)
{
	perror(what);
	exit(99);
}

/* A region of 2 pages; with tail_prot != PROT_READ|PROT_WRITE the second
 * page gets that protection, with -1 it is unmapped.  Returns the address
 * 100 bytes before the second page. */
static char *edge(int tail_prot)
{
	char *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 'v', 2 * 4096);
	if (tail_prot < 0)
		munmap(p + 4096, 4096);
	else if (tail_prot != (PROT_READ | PROT_WRITE))
		mprotect(p + 4096, 4096, tail_prot);
	return p + 4096 - 100;
}

static char *buffer(void)
{
	return edge(bad ? -1 : (PROT_READ | PROT_WRITE));
}

static void setup(void)
{
	file_fd = victim_file("victim", "0123456789", 10, 0);
	if (file_fd < 0)
		die("file");
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sock) < 0)
		die("setup");
	if (write(sock[1], "abcdefghij", 10) != 10)
		die("sock");
}

/* VICTIM_FDS=ebadf|eagain|epipe|eintr: the same calls on descriptors the
 * kernel fails them on (transparency: result and errno must not change). */
static void on_alarm_noop(int sig)
{
	(void)sig;
}

static void kernel_failures(void)
{
	const char *m = getenv("VICTIM_FDS");
	int p[2], q[2];

	if (!m)
		return;
	if (strcmp(m, "ebadf") == 0) {
		file_fd = null_fd = sock[0] = sock[1] = 1000; /* not open */
	} else if (strcmp(m, "eagain") == 0) {
		if (pipe2(p, O_NONBLOCK) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, q))
			die("eagain");
		file_fd = p[0];     /* empty: reads fail with EAGAIN (positional: ESPIPE) */
		sock[0] = q[0];
		while (write(p[1], small, sizeof small) > 0) /* full: writes fail with EAGAIN */
			;
		null_fd = p[1];
		while (send(q[1], small, sizeof small, 0) > 0)
			;
		sock[1] = q[1];
	} else if (strcmp(m, "epipe") == 0) {
		signal(SIGPIPE, SIG_IGN);
		if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, q))
			die("epipe");
		close(p[0]);
		close(q[0]);
		null_fd = p[1];      /* writes: EPIPE */
		sock[1] = q[1];
		file_fd = open("/", O_RDONLY | O_DIRECTORY); /* reads: EISDIR */
	} else if (strcmp(m, "eintr") == 0) {
		struct sigaction sa;
		struct itimerval it = {{0, 0}, {0, 50000}};
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_alarm_noop; /* no SA_RESTART */
		sigaction(SIGALRM, &sa, NULL);
		if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, q))
			die("eintr");
		file_fd = p[0];      /* empty, blocking: interrupted after 50 ms */
		sock[0] = q[0];
		setitimer(ITIMER_REAL, &it, NULL);
	}
}

static void vec(struct iovec *iov, char *b)
{
	iov[0].iov_base = small;
	iov[0].iov_len = 10;
	iov[1].iov_base = b;
	iov[1].iov_len = N;
}

/* ---- one function per entry point ---------------------------------- */
static void c_read(void) { char *b = buffer(); SITE(); ret = read(file_fd, b, N); }
static void c_write(void) { char *b = buffer(); SITE(); ret = write(null_fd, b, N); }
static void c___read_chk(void) { char *b = buffer(); SITE(); ret = __read_chk(file_fd, b, N, N); }
static void c_pread(void) { char *b = buffer(); SITE(); ret = pread(file_fd, b, N, 0); }
static void c_pread64(void) { char *b = buffer(); SITE(); ret = pread64(file_fd, b, N, 0); }
static void c_pwrite(void) { char *b = buffer(); SITE(); ret = pwrite(null_fd, b, N, 0); }
static void c_pwrite64(void) { char *b = buffer(); SITE(); ret = pwrite64(null_fd, b, N, 0); }
static void c___pread_chk(void) { char *b = buffer(); SITE(); ret = __pread_chk(file_fd, b, N, 0, N); }
static void c___pread64_chk(void) { char *b = buffer(); SITE(); ret = __pread64_chk(file_fd, b, N, 0, N); }
static void c_readv(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = readv(file_fd, v, 2); }
static void c_writev(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = writev(null_fd, v, 2); }
static void c_preadv(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = preadv(file_fd, v, 2, 0); }
static void c_preadv64(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = preadv64(file_fd, v, 2, 0); }
static void c_pwritev(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = pwritev(null_fd, v, 2, 0); }
static void c_pwritev64(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = pwritev64(null_fd, v, 2, 0); }
static void c_preadv2(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = preadv2(file_fd, v, 2, 0, 0); }
static void c_preadv64v2(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = preadv64v2(file_fd, v, 2, 0, 0); }
static void c_pwritev2(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = pwritev2(null_fd, v, 2, 0, 0); }
static void c_pwritev64v2(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = pwritev64v2(null_fd, v, 2, 0, 0); }
static void c_recv(void) { char *b = buffer(); SITE(); ret = recv(sock[0], b, N, 0); }
static void c_send(void) { char *b = buffer(); SITE(); ret = send(sock[1], b, N, 0); }
static void c___recv_chk(void) { char *b = buffer(); SITE(); ret = __recv_chk(sock[0], b, N, N, 0); }
static void c_recvfrom(void) { char *b = buffer(); SITE(); ret = recvfrom(sock[0], b, N, 0, NULL, NULL); }
static void c___recvfrom_chk(void) { char *b = buffer(); SITE(); ret = __recvfrom_chk(sock[0], b, N, N, 0, NULL, NULL); }
static void c_sendto(void) { char *b = buffer(); SITE(); ret = sendto(sock[1], b, N, 0, NULL, 0); }
static void c_recvmsg(void)
{
	struct iovec v[2];
	struct msghdr m = {.msg_iov = v, .msg_iovlen = 2};
	vec(v, buffer());
	SITE(); ret = recvmsg(sock[0], &m, 0);
}
static void c_sendmsg(void)
{
	struct iovec v[2];
	struct msghdr m = {.msg_iov = v, .msg_iovlen = 2};
	vec(v, buffer());
	SITE(); ret = sendmsg(sock[1], &m, 0);
}
static void c_syscall_read(void) { char *b = buffer(); SITE(); ret = syscall(SYS_read, file_fd, b, N); }
static void c_syscall_write(void) { char *b = buffer(); SITE(); ret = syscall(SYS_write, null_fd, b, N); }
static void c_syscall_pread64(void) { char *b = buffer(); SITE(); ret = syscall(SYS_pread64, file_fd, b, N, 0); }
static void c_syscall_readv(void) { struct iovec v[2]; vec(v, buffer()); SITE(); ret = syscall(SYS_readv, file_fd, v, 2); }

/* ---- problems beyond an unmapped tail ----------------------------- */
static void c_read_readonly(void) { char *b = edge(bad ? PROT_READ : PROT_READ | PROT_WRITE); SITE(); ret = read(file_fd, b, N); }
static void c_write_noaccess(void) { char *b = edge(bad ? PROT_NONE : PROT_READ); SITE(); ret = write(null_fd, b, N); }
static void c_write_all_unmapped(void)
{
	char *b = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad)
		munmap(b, 4096);
	SITE(); ret = write(null_fd, b, 4096);
}
static void c_pread_negative(void) { char b[16]; SITE(); ret = pread(file_fd, b, 10, bad ? -5 : 0); }
static void c_pread_overflow(void) { char b[128]; SITE(); ret = pread(file_fd, b, 100, bad ? INT64_MAX - 10 : INT64_MAX - 100); }
static void c_preadv2_offset(void)
{
	char b[16];
	struct iovec v = {b, 10};
	SITE(); ret = preadv2(file_fd, &v, 1, bad ? -2 : -1, 0);
}
static void c_read_count(void) { char b[16]; SITE(); ret = read(file_fd, b, bad ? (size_t)SSIZE_MAX + 1 : 10); }
static void c_readv_iovcnt(void)
{
	struct iovec v = {small, 10};
	SITE(); ret = readv(file_fd, &v, bad ? -1 : 1);
}
static void c_readv_iovcnt_big(void)
{
	static struct iovec v[IOV_MAX + 1];
	for (int i = 0; i <= IOV_MAX; i++)
		v[i].iov_base = small, v[i].iov_len = 1;
	SITE(); ret = readv(file_fd, v, bad ? IOV_MAX + 1 : IOV_MAX);
}
static void c_readv_array(void)
{
	struct iovec *v = (struct iovec *)edge(bad ? -1 : PROT_READ | PROT_WRITE);
	v = (struct iovec *)((char *)v + 100 - sizeof *v); /* 2nd element past the page */
	v[0].iov_base = small;
	v[0].iov_len = 10;
	if (!bad) {
		v[1].iov_base = small;
		v[1].iov_len = 1;
	}
	SITE(); ret = readv(file_fd, v, 2);
}
static void c_readv_len(void)
{
	struct iovec v[2] = {{small, 10}, {small, bad ? (size_t)SSIZE_MAX : 5}};
	SITE(); ret = readv(file_fd, v, 2);
}
/* A good read into the lower half of a mapping whose upper half was just
 * unmapped (bad), then the call that runs into the hole: the first must
 * not leave the whole of the old mapping in the thread's cache. */
static void c_read_warm(void)
{
	char *b = buffer();

	if (read(file_fd, b - 200, 50) < 0 || lseek(file_fd, 0, SEEK_SET) != 0)
		die("warm");
	SITE(); ret = read(file_fd, b, N);
}
/* Both segments in the buffer's mapping, the second running off its end
 * (bad); a good read first puts the mapping in the thread's cache, so the
 * library's look at the span of all segments is what decides. */
static void c_readv_warm(void)
{
	char *b = buffer();
	struct iovec v[2] = {{b - 200, 50}, {b, N}};

	if (read(file_fd, b - 200, 50) < 0 || lseek(file_fd, 0, SEEK_SET) != 0)
		die("warm");
	SITE(); ret = readv(file_fd, v, 2);
}
static void c_read_null_zero(void) { SITE(); ret = read(file_fd, NULL, 0); }
static void c_read_efault_offset(void)
{
	char *b = buffer();
	SITE(); ret = read(file_fd, b, N);
	printf("offset %lld\n", (long long)lseek(file_fd, 0, SEEK_CUR));
}
/* ---- the library's lazily loaded helpers keep out of the program's holes */
static void c_hole_after_report(void)
{
	size_t sz = 16u << 20, step = 256u << 10, n = 0;
	char *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t lo = (uintptr_t)p + 4096, hi = (uintptr_t)p + sz - 4096;
	char line[512];
	FILE *m;
	int foreign = 0;

	if (p == MAP_FAILED)
		die("mmap");
	munmap(p + 4096, sz - 8192); /* a hole of 16 MiB less two pages */
	if (bad && write(null_fd, p + 8192, 100) < 0) /* the first report loads libunwind, libdw */
		die("write");
	m = fopen("/proc/self/maps", "r");
	while (m && fgets(line, sizeof line, m)) {
		uintptr_t a = (uintptr_t)strtoull(line, NULL, 16);
		if (a >= lo && a < hi)
			foreign++, printf("in the hole: %s", line);
	}
	if (m)
		fclose(m);
	printf("mappings in the hole: %d\n", foreign);
	for (uintptr_t a = lo; bad && a + 100 <= hi; a += step, n++)
		if (write(null_fd, (void *)a, 100) < 0)
			die("write");
	printf("bad writes into the hole: %zu\n", n);
	ret = 0;
}

/* ---- the rest of the family (issue 6) ------------------------------ */
static void c_recvmmsg(void)
{
	struct iovec v[2];
	struct mmsghdr m[1] = {{.msg_hdr = {.msg_iov = v, .msg_iovlen = 2}}};
	vec(v, buffer());
	SITE(); ret = recvmmsg(sock[0], m, 1, 0, NULL);
}
static void c_sendmmsg(void)
{
	struct iovec v[2];
	struct mmsghdr m[1] = {{.msg_hdr = {.msg_iov = v, .msg_iovlen = 2}}};
	vec(v, buffer());
	SITE(); ret = sendmmsg(sock[1], m, 1, 0);
}
/* An offset pointer whose last 4 bytes are unmapped (bad) or not. */
static off_t *offp(void)
{
	off_t *o = (off_t *)(void *)(edge(bad ? -1 : (PROT_READ | PROT_WRITE)) + 96);
	memset(o, 0, 4);
	if (!bad)
		*o = 0;
	return o;
}
static int out_fd(void)
{
	char tmpl[] = "/tmp/rwcheck-victim-out-XXXXXX";
	int fd = mkstemp(tmpl);
	if (fd < 0)
		die("mkstemp");
	unlink(tmpl);
	return fd;
}
static void c_sendfile(void) { off_t *o = offp(); SITE(); ret = sendfile(null_fd, file_fd, o, 10); }
static void c_sendfile64(void) { off64_t *o = (off64_t *)offp(); SITE(); ret = sendfile64(null_fd, file_fd, o, 10); }
static void c_splice(void)
{
	int p[2];
	off64_t *o = (off64_t *)offp();
	if (pipe(p))
		die("pipe");
	SITE(); ret = splice(file_fd, o, p[1], NULL, 10, 0);
}
static void c_copy_file_range(void)
{
	int fd = out_fd();
	off64_t *o = (off64_t *)offp();
	SITE(); ret = copy_file_range(file_fd, o, fd, NULL, 10, 0);
}
static char remote[2 * N];
static void c_process_vm_readv(void)
{
	struct iovec v[2], r = {remote, 10 + N};
	vec(v, buffer());
	SITE(); ret = process_vm_readv(getpid(), v, 2, &r, 1, 0);
}
static void c_process_vm_writev(void)
{
	struct iovec v[2], r = {remote, 10 + N};
	vec(v, buffer());
	SITE(); ret = process_vm_writev(getpid(), v, 2, &r, 1, 0);
}
/* Unbuffered streams: stdio moves the bytes straight between the
 * caller's buffer and the kernel, so a bad mode does not crash. */
static FILE *stream(int fd, const char *mode)
{
	FILE *f = fdopen(dup(fd), mode);
	if (!f)
		die("fdopen");
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}
static void c_fread(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = (ssize_t)fread(b, 1, N, f); }
static void c_fread_unlocked(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = (ssize_t)fread_unlocked(b, 1, N, f); }
static void c___fread_chk(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = (ssize_t)__fread_chk(b, N, 1, N, f); }
static void c___fread_unlocked_chk(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = (ssize_t)__fread_unlocked_chk(b, N, 1, N, f); }
static void c_fwrite(void) { char *b = buffer(); FILE *f = stream(null_fd, "w"); SITE(); ret = (ssize_t)fwrite(b, 1, N, f); }
static void c_fwrite_unlocked(void) { char *b = buffer(); FILE *f = stream(null_fd, "w"); SITE(); ret = (ssize_t)fwrite_unlocked(b, 1, N, f); }
static void c_fgets(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = fgets(b, N, f) ? 1 : 0; }
static void c_fgets_unlocked(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = fgets_unlocked(b, N, f) ? 1 : 0; }
static void c___fgets_chk(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = __fgets_chk(b, N, N, f) ? 1 : 0; }
static void c___fgets_unlocked_chk(void) { char *b = buffer(); FILE *f = stream(file_fd, "r"); SITE(); ret = __fgets_unlocked_chk(b, N, N, f) ? 1 : 0; }
/* Offsets behind the pointer: negative, and overflowing with the count. */
static void c_sendfile_negative(void)
{
	static off_t o;
	o = bad ? -5 : 0;
	SITE(); ret = sendfile(null_fd, file_fd, &o, 10);
}
static void c_splice_overflow(void)
{
	int p[2];
	static off64_t o;
	o = bad ? INT64_MAX - 5 : 0;
	if (pipe(p))
		die("pipe");
	SITE(); ret = splice(file_fd, &o, p[1], NULL, 10, 0);
}
static void c_fread_count(void)
{
	char *b = buffer();
	FILE *f = stream(file_fd, "r");
	SITE(); ret = (ssize_t)fread(b, bad ? SIZE_MAX / 2 : 1, bad ? 4 : 10, f);
}

static void c_recvmsg_control(void)
{
	struct iovec v = {small, 10};
	struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1, .msg_control = edge(bad ? -1 : PROT_READ | PROT_WRITE), .msg_controllen = 200};
	SITE(); ret = recvmsg(sock[0], &m, 0);
}

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


/* ---- transparency: good buffers, calls the kernel fails ----------- */
static void c_read_ebadf(void) { SITE(); ret = read(-1, small, 10); }
static void c_read_eisdir(void) { int d = open("/", O_RDONLY | O_DIRECTORY); SITE(); ret = read(d, small, 10); }
static void c_pread_espipe(void) { int p[2]; if (pipe(p)) die("pipe"); SITE(); ret = pread(p[0], small, 10, 0); }
static void c_read_eagain(void)
{
	int p[2];
	if (pipe2(p, O_NONBLOCK))
		die("pipe2");
	errno = 1234;
	SITE(); ret = read(p[0], small, 10);
}
static void c_write_errno_kept(void)
{
	errno = 4321;
	SITE(); ret = write(null_fd, small, 10);
	printf("errno after good call %d\n", errno);
}

/* ---- threads: concurrent bad calls, one whole report each --------- */
static void *bad_writer(void *arg)
{
	char *b = arg;
	for (int i = 0; i < 25; i++)
		if (write(null_fd, b, N) < 0)
			break;
	return NULL;
}
static void c_threads(void)
{
	pthread_t t[4];
	char *b = buffer();
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, bad_writer, b);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ret = 0;
}

/* 4 threads make their first bad call from each of 32 call sites at the
 * same moment (a barrier per site): each site must be reported once and
 * counted 4 times, however the threads race to claim it. */
#define SITES32(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
	X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) \
	X(28) X(29) X(30) X(31)
static pthread_barrier_t race_go;
#define W(n) static __attribute__((noinline)) void site_##n(char *b) \
	{ if (write(null_fd, b, N - n) < 0) exit(97); }
SITES32(W)
#undef W
static void (*const race_sites[32])(char *) = {
#define W(n) site_##n,
	SITES32(W)
#undef W
};
static void *racer(void *arg)
{
	for (int k = 0; k < 32; k++) {
		pthread_barrier_wait(&race_go);
		race_sites[k](arg);
	}
	return NULL;
}
static void c_dedup_race(void)
{
	pthread_t t[4];
	char *b = buffer();
	pthread_barrier_init(&race_go, NULL, 4);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, racer, b);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ret = 0;
}

/* Two entry points called through a table of function pointers from ONE
 * call instruction (in a function of its own, noinline and noclone: the
 * victim's CFLAGS end with the user's -O2), 3 rounds: a call site is
 * (entry point, caller, problem), so each entry point is reported once and
 * counted 3 times.  dedup_same: the twin, one entry point twice in the
 * table: one site, counted 6 times. */
#define ROUNDS 3
#define ONE_CALL __attribute__((noinline, noclone))
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);   /* off_t is off64_t on 64-bit ABIs */
typedef ssize_t (*preadv2_fn)(int, const struct iovec *, int, off_t, int);
typedef ssize_t (*recv_chk_fn)(int, void *, size_t, size_t, int);
static ONE_CALL void one_pread(pread_fn f, char *b) { SITE(); ret = f(file_fd, b, N, 0); }
static ONE_CALL void one_preadv2(preadv2_fn f, struct iovec *v) { SITE(); ret = f(file_fd, v, 2, 0, 0); }
/* recv(fd, buf, len, flags) through __recv_chk's type: its 4th argument
 * (__recv_chk's buflen, >= N) is recv's flags, MSG_DONTWAIT|MSG_NOSIGNAL
 * (nothing waits after the first call; a receive ignores MSG_NOSIGNAL);
 * the 5th, __recv_chk's flags, recv never reads. */
static ONE_CALL void one_recv(recv_chk_fn f, char *b)
{
	SITE(); ret = f(sock[0], b, N, MSG_DONTWAIT | MSG_NOSIGNAL, MSG_DONTWAIT);
}
static ONE_CALL void one_syscall(long nr, char *b) { SITE(); ret = syscall(nr, file_fd, b, N, 0); }

static void pread_table(pread_fn f0, pread_fn f1)
{
	pread_fn t[2] = {f0, f1};
	char *b = buffer();
	for (int k = 0; k < 2 * ROUNDS; k++)
		one_pread(t[k % 2], b);
}
static void c_dedup_pread(void) { pread_table(pread, (pread_fn)pread64); }
static void c_dedup_same(void) { pread_table(pread, pread); }
static void c_dedup_preadv2(void)
{
	preadv2_fn t[2] = {preadv2, (preadv2_fn)preadv64v2};
	struct iovec v[2];
	vec(v, buffer());
	for (int k = 0; k < 2 * ROUNDS; k++)
		one_preadv2(t[k % 2], v);
}
static void c_dedup_recv(void)
{
	recv_chk_fn t[2] = {(recv_chk_fn)(void (*)(void))recv, __recv_chk};
	char *b = buffer();
	for (int k = 0; k < 2 * ROUNDS; k++)
		one_recv(t[k % 2], b);
}
/* syscall() with two numbers from one call: two sites too. */
static void c_dedup_syscall(void)
{
	static const long nr[2] = {SYS_read, SYS_pread64};
	char *b = buffer();
	for (int k = 0; k < 2 * ROUNDS; k++) {
		lseek(file_fd, 0, SEEK_SET);
		one_syscall(nr[k % 2], b);
	}
}

/* ---- fork: the child's report goes to its own log (%p) ------------ */
static void c_fork(void)
{
	char *b = buffer();
	pid_t pid = fork();
	if (pid == 0) {
		ret = write(null_fd, b, N);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("child %d\n", (int)pid);
	ret = write(null_fd, b, N);
}

/* ---- signals: a handler writing while threads read, write and churn */
static volatile sig_atomic_t alarms, stop_churn;
static char alarm_buf[64];
static char *alarm_bad; /* set for the bad variant: tail unmapped */

static void on_alarm(int sig)
{
	int e = errno;
	(void)sig;
	if (write(null_fd, alarm_bad ? alarm_bad : alarm_buf, alarm_bad ? N : sizeof alarm_buf) >= 0)
		alarms++;
	errno = e;
}

static void start_alarms(long usec)
{
	struct sigaction sa;
	struct itimerval it = {{0, usec}, {0, usec}};

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void stop_alarms(void)
{
	struct itimerval it = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &it, NULL);
}

static void *churner(void *arg)
{
	(void)arg;
	while (!stop_churn) {
		char *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		mprotect(p, 4096, PROT_READ);
		munmap(p, 65536);
	}
	return NULL;
}

static int pipe_fd[2];
static void *sequence_writer(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 200000; i++) {
		ssize_t w;
		do
			w = write(pipe_fd[1], &i, sizeof i);
		while (w < 0 && errno == EINTR);
		if (w != sizeof i)
			die("sequence write");
	}
	close(pipe_fd[1]);
	return NULL;
}

static void c_signals(void)
{
	pthread_t w, ch;
	unsigned x, expect = 0;
	ssize_t r;

	alarm_bad = bad ? buffer() : NULL;
	if (pipe(pipe_fd))
		die("pipe");
	start_alarms(200);
	pthread_create(&ch, NULL, churner, NULL);
	pthread_create(&w, NULL, sequence_writer, NULL);
	for (;;) {
		size_t got = 0;
		while (got < sizeof x) {
			r = read(pipe_fd[0], (char *)&x + got, sizeof x - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got == 0)
			break;
		if (got != sizeof x || x != expect)
			die("corrupted sequence");
		expect++;
	}
	stop_alarms();
	stop_churn = 1;
	pthread_join(w, NULL);
	pthread_join(ch, NULL);
	printf("sequence %u, alarms %s\n", expect, alarms > 10 ? "many" : "few");
	ret = 0;
}

/* ---- bad calls from a handler that interrupts malloc ------------- */
static void *watchdog(void *arg)
{
	sigset_t all;
	struct timespec t;

	/* No signal for this thread (sleep would end early), and a deadline
	 * rather than a duration. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += (long)arg;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0)
		;
	printf("watchdog: hung\n");
	_exit(77);
}

static void c_signal_malloc(void)
{
	double until;
	struct timespec t;
	pthread_t w;

	pthread_create(&w, NULL, watchdog, (void *)20L); /* a deadlock ends in exit 77 */
	alarm_bad = buffer();
	start_alarms(5000); /* leave the interrupted code time to progress */
	clock_gettime(CLOCK_MONOTONIC, &t);
	until = (double)t.tv_sec + t.tv_nsec / 1e9 + 0.5;
	do {
		for (int i = 0; i < 1000; i++)
			free(malloc((size_t)(i % 64) * 1024 + 1));
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)t.tv_sec + t.tv_nsec / 1e9 < until);
	stop_alarms();
	printf("alarms %s\n", alarms > 10 ? "many" : "few");
	ret = 0;
}

/* ---- threads doing I/O while another churns the map; seeded bad calls */
static char *seed_bad;
static void *io_worker(void *arg)
{
	long id = (long)arg;
	char stackbuf[256];
	char *heap = malloc(4096), *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/exe", O_RDONLY);
	char *file = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);

	for (int i = 0; i < 2000; i++) {
		if (pread(fd, stackbuf, sizeof stackbuf, 0) != sizeof stackbuf || pread(fd, heap, 4096, 0) != 4096 ||
		    pread(fd, map, 8192, 0) != 8192 || write(null_fd, file, 4096) != 4096)
			die("good io");
		if (i % 100 == 99 && pread(file_fd, seed_bad, N, 0) < 0) /* seeded: bytes 100.. unmapped */
			die("seeded");
	}
	(void)id;
	free(heap);
	return NULL;
}
static void c_churn(void)
{
	pthread_t t[3], ch;

	seed_bad = edge(PROT_NONE); /* a guard page: the churner cannot map over it */
	pthread_create(&ch, NULL, churner, NULL);
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, io_worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	stop_churn = 1;
	pthread_join(ch, NULL);
	ret = 0;
}

/* ---- vfork and posix_spawn from a multithreaded process ----------- */
static void *spinner(void *arg)
{
	char b[16];
	(void)arg;
	while (!stop_churn)
		if (read(file_fd, b, 1) < 0)
			break;
	return NULL;
}
static void c_vfork(void)
{
	pthread_t t;
	char *b = buffer();
	char *argv[] = {"victim", "write", "bad", NULL};
	pid_t pid;

	pthread_create(&t, NULL, spinner, NULL);
	pid = vfork();
	if (pid == 0) {
		if (write(null_fd, b, N) < 0) /* in the vfork child: reported, safely */
			_exit(1);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("vfork child %d\n", (int)pid);
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) == 0) {
		waitpid(pid, NULL, 0);
		printf("spawned child %d\n", (int)pid);
	}
	stop_churn = 1;
	pthread_join(t, NULL);
	ret = 0;
}

/* ---- the process keeps no descriptor and no handler of the library */
static void list_fds(const char *when)
{
	char path[64], target[256];
	printf("fds %s:", when);
	for (int fd = 0; fd < 64; fd++) {
		ssize_t n;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof target - 1);
		if (n > 0) {
			target[n] = '\0';
			if (fd == file_fd)
				strcpy(target, "(the test file)");
			printf(" %d=%s", fd, target);
		}
	}
	printf("\n");
}
static void c_fds(void)
{
	char *b = buffer();
	list_fds("before");
	ret = read(file_fd, b, N); /* bad: a report is written */
	list_fds("after");
}
static void c_closeall(void)
{
	char *b = buffer();
	for (int fd = 0; fd < 1024; fd++)
		if (fd != file_fd && fd != 1)
			close(fd);
	ret = read(file_fd, b, N); /* bad, with every other descriptor closed */
}
static void c_sigcgt(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	ret = read(file_fd, small, 10);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "SigCgt:", 7) == 0)
			printf("%s", line);
	if (f)
		fclose(f);
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

/* ---- fork while another thread is in the middle of a report -------- */
static void *slow_reporter(void *arg)
{
	char *b = arg;
	/* The first report loads libunwind and libdw: milliseconds under the
	 * report lock, while the main thread forks. */
	for (int i = 0; i < 20 && !stop_churn; i++)
		if (write(null_fd, b + i, N) < 0)
			break;
	return NULL;
}
static void c_fork_during_report(void)
{
	pthread_t t;
	char *b = buffer();
	int hung = 0;

	pthread_create(&t, NULL, slow_reporter, b - 64);
	for (int i = 0; i < 20; i++) {
		pid_t pid = fork();
		int st = 0;
		if (pid == 0) {
			alarm(20); /* a hang in the child would end it by SIGALRM */
			ret = write(null_fd, b, N); /* bad: needs the report path */
			_exit(0);
		}
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			hung++;
	}
	stop_churn = 1;
	pthread_join(t, NULL);
	printf("children that did not finish cleanly: %d\n", hung);
	ret = 0;
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
/* The same through a raw clone(): no fork handler runs in the child. */
static void c_first_rawfork(void)
{
	int fd = first_fd(), st = 0;
	char *b = bad ? (char *)"in .rodata: not writable" : small;
	pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		SITE(); ret = read(fd, b, 10);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("fork child %d %d\n", (int)pid, st);
	ret = 0;
}

/* ---- a report never carries the buffer's bytes -------------------- */
static void c_secret(void)
{
	char *b = buffer();
	memcpy(b, "TOPSECRET-0123456789-TOPSECRET", 30);
	SITE(); ret = write(null_fd, b, N);
}

static const struct victim_case cases[] = {
#define E VCASE
	E(read), E(write), E(__read_chk), E(pread), E(pread64), E(pwrite), E(pwrite64),
	E(__pread_chk), E(__pread64_chk), E(readv), E(writev), E(preadv), E(preadv64),
	E(pwritev), E(pwritev64), E(preadv2), E(preadv64v2), E(pwritev2), E(pwritev64v2),
	E(recv), E(send), E(__recv_chk), E(recvfrom), E(__recvfrom_chk), E(sendto),
	E(recvmsg), E(sendmsg), E(syscall_read), E(syscall_write), E(syscall_pread64),
	E(syscall_readv),
	E(read_readonly), E(write_noaccess), E(write_all_unmapped), E(pread_negative),
	E(pread_overflow), E(preadv2_offset), E(read_count), E(readv_iovcnt),
	E(readv_iovcnt_big), E(readv_array), E(readv_len), E(read_warm), E(readv_warm), E(read_null_zero),
	E(read_efault_offset), E(recvmsg_control),
	E(recvmmsg), E(sendmmsg), E(sendfile), E(sendfile64), E(splice), E(copy_file_range),
	E(process_vm_readv), E(process_vm_writev), E(fread), E(fread_unlocked), E(__fread_chk),
	E(__fread_unlocked_chk), E(fwrite), E(fwrite_unlocked), E(fgets), E(fgets_unlocked),
	E(__fgets_chk), E(__fgets_unlocked_chk), E(sendfile_negative), E(splice_overflow),
	E(fread_count),
	E(stale_munmap), E(stale_raw_munmap), E(stale_mprotect), E(stale_raw_mprotect),
	E(stale_free), E(stale_dlclose),
	E(new_raw_mmap), E(new_asm_mmap), E(new_asm_mprotect), E(new_malloc_large),
	E(new_brk), E(new_mremap), E(new_dlopen), E(new_thread_stack),
	E(read_ebadf), E(read_eisdir), E(pread_espipe), E(read_eagain), E(write_errno_kept),
	E(threads), E(fork), E(signals), E(signal_malloc), E(churn), E(vfork), E(fds), E(closeall),
	E(sigcgt), E(oddpaths), E(manymaps), E(fork_during_report), E(secret), E(hole_after_report),
	E(first_munmap), E(first_raw_munmap), E(first_free), E(first_vfork), E(first_fork),
	E(first_rawfork), E(first_threads), E(dedup_race), E(dedup_pread), E(dedup_same),
	E(dedup_preadv2), E(dedup_recv), E(dedup_syscall),
#undef E
};

int main(int argc, char **argv)
{
	int i = victim_pick(argc, argv, "victim", cases, &bad), saved_errno;

	if (i < 0)
		return 2;
	if (strncmp(argv[1], "first_", 6) != 0) {
		setup();
		kernel_failures();
	}
	errno = 0;
	cases[i].fn();
	saved_errno = errno;
	victim_result(ret, saved_errno);
	if (getenv("VICTIM_FDS"))
		printf("offset %lld errno-after %d\n", (long long)lseek(file_fd, 0, SEEK_CUR), saved_errno);
	return 0;
}
