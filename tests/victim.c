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
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern ssize_t __read_chk(int, void *, size_t, size_t);
extern ssize_t __pread_chk(int, void *, size_t, off_t, size_t);
extern ssize_t __pread64_chk(int, void *, size_t, off64_t, size_t);
extern ssize_t __recv_chk(int, void *, size_t, size_t, int);
extern ssize_t __recvfrom_chk(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *);

#define N 4096
#define SITE() printf("site %s %d\n", __func__, __LINE__)

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

static void result(void)
{
	printf("result %zd %d\n", ret, ret < 0 ? errno : 0);
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
	char tmpl[] = "/tmp/rwcheck-victim-XXXXXX";

	file_fd = mkstemp(tmpl);
	if (file_fd < 0)
		die("mkstemp");
	unlink(tmpl);
	if (write(file_fd, "0123456789", 10) != 10 || lseek(file_fd, 0, SEEK_SET) != 0)
		die("file");
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sock) < 0)
		die("setup");
	if (write(sock[1], "abcdefghij", 10) != 10)
		die("sock");
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
static void c_read_null_zero(void) { SITE(); ret = read(file_fd, NULL, 0); }
static void c_read_efault_offset(void)
{
	char *b = buffer();
	SITE(); ret = read(file_fd, b, N);
	printf("offset %lld\n", (long long)lseek(file_fd, 0, SEEK_CUR));
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

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
#define E(n) {#n, c_##n}
	E(read), E(write), E(__read_chk), E(pread), E(pread64), E(pwrite), E(pwrite64),
	E(__pread_chk), E(__pread64_chk), E(readv), E(writev), E(preadv), E(preadv64),
	E(pwritev), E(pwritev64), E(preadv2), E(preadv64v2), E(pwritev2), E(pwritev64v2),
	E(recv), E(send), E(__recv_chk), E(recvfrom), E(__recvfrom_chk), E(sendto),
	E(recvmsg), E(sendmsg), E(syscall_read), E(syscall_write), E(syscall_pread64),
	E(syscall_readv),
	E(read_readonly), E(write_noaccess), E(write_all_unmapped), E(pread_negative),
	E(pread_overflow), E(preadv2_offset), E(read_count), E(readv_iovcnt),
	E(readv_iovcnt_big), E(readv_array), E(readv_len), E(read_null_zero),
	E(read_efault_offset), E(recvmsg_control),
	E(stale_munmap), E(stale_raw_munmap), E(stale_mprotect), E(stale_raw_mprotect),
	E(stale_free), E(stale_dlclose),
	E(new_raw_mmap), E(new_asm_mmap), E(new_asm_mprotect), E(new_malloc_large),
	E(new_brk), E(new_mremap), E(new_dlopen), E(new_thread_stack),
	E(read_ebadf), E(read_eisdir), E(pread_espipe), E(read_eagain), E(write_errno_kept),
	E(threads), E(fork),
#undef E
};

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "good") && strcmp(argv[2], "bad"))) {
		fprintf(stderr, "usage: victim ENTRY good|bad\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	bad = strcmp(argv[2], "bad") == 0;
	setup();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(cases[i].name, argv[1]) == 0) {
			cases[i].fn();
			result();
			return 0;
		}
	}
	fprintf(stderr, "victim: no case %s\n", argv[1]);
	return 2;
}
