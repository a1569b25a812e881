/* victim_problems.c: the victim's cases beyond an unmapped tail (see
 * victim.c, which runs them): read-only and unreadable buffers, bad
 * offsets, counts and iovec arrays, a hole a report must keep out of, the
 * calls the kernel fails (VICTIM_FDS: kernel_failures) and a report that
 * must not carry the buffer's bytes. */
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
/* No segments, a negative offset: the kernel fails it (EINVAL) all the same. */
static void c_preadv_none(void)
{
	char b[16];
	struct iovec v = {b, 10};
	SITE(); ret = preadv(file_fd, &v, 0, bad ? -1 : 0);
}
/* msg_iovlen past IOV_MAX (2000): said as it is. */
static void c_recvmsg_iovlen(void)
{
	char b[16];
	struct iovec v = {b, sizeof b};
	struct msghdr m = {.msg_iov = &v, .msg_iovlen = bad ? 2000 : 1};
	int q[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, q) || write(q[1], "ab", 2) != 2)
		exit(99);
	SITE(); ret = recvmsg(q[0], &m, MSG_DONTWAIT);
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

/* VICTIM_FDS=ebadf|eagain|epipe|eintr: the same calls on descriptors the
 * kernel fails them on (transparency: result and errno must not change). */
static void on_alarm_noop(int sig)
{
	(void)sig;
}

void kernel_failures(void)
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
		/* again every 50 ms: a first alarm that fires before the call (a
		 * loaded machine, the library's first look at this caller) does not
		 * leave it blocked for ever */
		struct itimerval it = {{0, 50000}, {0, 50000}};
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

/* ---- a report never carries the buffer's bytes -------------------- */
static void c_secret(void)
{
	char *b = buffer();
	memcpy(b, "TOPSECRET-0123456789-TOPSECRET", 30);
	SITE(); ret = write(null_fd, b, N);
}

const struct victim_case victim_problem_cases[] = {
	VCASE(read_readonly), VCASE(write_noaccess), VCASE(write_all_unmapped), VCASE(pread_negative),
	VCASE(pread_overflow), VCASE(preadv2_offset), VCASE(preadv_none), VCASE(recvmsg_iovlen), VCASE(read_count), VCASE(readv_iovcnt),
	VCASE(readv_iovcnt_big), VCASE(readv_array), VCASE(readv_len), VCASE(read_warm),
	VCASE(readv_warm), VCASE(read_null_zero), VCASE(read_efault_offset), VCASE(read_ebadf),
	VCASE(read_eisdir), VCASE(pread_espipe), VCASE(read_eagain), VCASE(write_errno_kept),
	VCASE(secret), VCASE(hole_after_report),
};
const size_t victim_problem_ncases = sizeof victim_problem_cases / sizeof victim_problem_cases[0];
