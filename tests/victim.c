/* victim.c: makes one interposed call, good or bad, for the tests.
 *
 *   victim ENTRY MODE
 *
 * ENTRY is an entry point (read, pread64, __recv_chk, recvmsg, syscall-read,
 * ...) or a named scenario (the tables: this file's at the end, and those
 * of victim_problems.c, victim_maps.c, victim_process.c); MODE is "good" (a
 * valid buffer) or "bad" (a 4096-byte request whose bytes 100..4095 lie in
 * unmapped memory; for vector calls that is segment 1).  It prints
 *   site FUNCTION LINE    (the line of the call, for the caller assertions)
 *   result RET ERRNO      (what the call returned)
 * This file: the state and helpers the cases share (victim_parts.h), one
 * case per entry point, the call sites' identity (dedup_*: their reports
 * must name victim.c), main.  Built with -O0 -g so that the call's line is
 * exact. */
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
#include "victim_parts.h"

extern ssize_t __read_chk(int, void *, size_t, size_t);
extern ssize_t __pread_chk(int, void *, size_t, off_t, size_t);
extern ssize_t __pread64_chk(int, void *, size_t, off64_t, size_t);
extern ssize_t __recv_chk(int, void *, size_t, size_t, int);
extern ssize_t __recvfrom_chk(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *);
extern size_t __fread_chk(void *, size_t, size_t, size_t, FILE *);
extern size_t __fread_unlocked_chk(void *, size_t, size_t, size_t, FILE *);
extern char *__fgets_chk(char *, size_t, int, FILE *);
extern char *__fgets_unlocked_chk(char *, size_t, int, FILE *);


int bad;           /* MODE is "bad" */
int file_fd;       /* a 10-byte file */
int null_fd;       /* /dev/null */
int sock[2];       /* stream socketpair, 10 bytes waiting on sock[0] */
char small[16];    /* segment 0 of vector calls */
ssize_t ret;

void die(const char *what)
{
	perror(what);
	exit(99);
}

/* A region of 2 pages; with tail_prot != PROT_READ|PROT_WRITE the second
 * page gets that protection, with -1 it is unmapped.  Returns the address
 * 100 bytes before the second page. */
char *edge(int tail_prot)
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

char *buffer(void)
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

void vec(struct iovec *iov, char *b)
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
/* One call of pread in a helper reached from two callers, 3 rounds: two
 * call sites (the wrapper groups reports by their frames), 3 calls each
 * (the helper's pread counted as one site hid the second caller's bug,
 * and a suppression of one caller's matched the other's calls too). */
static void c_dedup_callers(void)
{
	char *b = buffer();
	for (int k = 0; k < ROUNDS; k++) {
		one_pread(pread, b); /* (the first caller) */
		one_pread(pread, b); /* (the second) */
	}
}
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

static const struct victim_case cases[] = {
	VCASE(read), VCASE(write), VCASE(__read_chk), VCASE(pread), VCASE(pread64), VCASE(pwrite),
	VCASE(pwrite64), VCASE(__pread_chk), VCASE(__pread64_chk), VCASE(readv), VCASE(writev),
	VCASE(preadv), VCASE(preadv64), VCASE(pwritev), VCASE(pwritev64), VCASE(preadv2),
	VCASE(preadv64v2), VCASE(pwritev2), VCASE(pwritev64v2), VCASE(recv), VCASE(send),
	VCASE(__recv_chk), VCASE(recvfrom), VCASE(__recvfrom_chk), VCASE(sendto), VCASE(recvmsg),
	VCASE(sendmsg), VCASE(syscall_read), VCASE(syscall_write), VCASE(syscall_pread64),
	VCASE(syscall_readv), VCASE(recvmsg_control), VCASE(recvmmsg), VCASE(sendmmsg), VCASE(sendfile),
	VCASE(sendfile64), VCASE(splice), VCASE(copy_file_range), VCASE(process_vm_readv),
	VCASE(process_vm_writev), VCASE(fread), VCASE(fread_unlocked), VCASE(__fread_chk),
	VCASE(__fread_unlocked_chk), VCASE(fwrite), VCASE(fwrite_unlocked), VCASE(fgets),
	VCASE(fgets_unlocked), VCASE(__fgets_chk), VCASE(__fgets_unlocked_chk), VCASE(sendfile_negative),
	VCASE(splice_overflow), VCASE(fread_count), VCASE(dedup_race), VCASE(dedup_pread),
	VCASE(dedup_same), VCASE(dedup_callers), VCASE(dedup_preadv2), VCASE(dedup_recv), VCASE(dedup_syscall),
};

/* The case NAME in one of the tables, or NULL. */
static const struct victim_case *find_case(const char *name)
{
	static const struct {
		const struct victim_case *rows;
		const size_t *n;
	} tables[] = {{cases, NULL}, {victim_problem_cases, &victim_problem_ncases},
		      {victim_map_cases, &victim_map_ncases}, {victim_process_cases, &victim_process_ncases}};

	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		size_t n = tables[t].n ? *tables[t].n : sizeof cases / sizeof cases[0];
		int i = victim_find_rows(name, tables[t].rows, n, sizeof(struct victim_case));

		if (i >= 0)
			return &tables[t].rows[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct victim_case *c;
	int saved_errno;

	if (victim_args(argc, argv, "victim", &bad) < 0)
		return 2;
	if (!(c = find_case(argv[1]))) {
		fprintf(stderr, "victim: no case %s\n", argv[1]);
		return 2;
	}
	if (strncmp(argv[1], "first_", 6) != 0) {
		setup();
		kernel_failures();
	}
	errno = 0;
	c->fn();
	saved_errno = errno;
	victim_result(ret, saved_errno);
	if (getenv("VICTIM_FDS"))
		printf("offset %lld errno-after %d\n", (long long)lseek(file_fd, 0, SEEK_CUR), saved_errno);
	return 0;
}
