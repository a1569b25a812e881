/* victim_capacity.c: one call per case that hands the kernel a capacity
 * (issue 15).  "bad": the capacity runs past the object the buffer is in
 * (a heap block of an exact size: 24, 56, 72, 136 bytes are their usable
 * sizes too) or into a read-only or unmapped page, while the call's result
 * is short and harmless (a 2-byte link, an empty epoll set, an empty
 * listening socket, ...); "good": the same call with a buffer that holds
 * the capacity.  Built -O0, -O2 and -O2 -D_FORTIFY_SOURCE=2: the fort_*
 * cases use a static buffer whose size the compiler knows, so that the
 * fortified build calls the __*_chk twins (their bad half: the second
 * page read-only).
 *
 *   victim_capacity CASE good|bad -> "site FUNC LINE", "result RET ERRNO"
 *   (errno after the call, 0 when the call left it alone) */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "victim.h"

static int bad;
static long r;
static char dir[64], lnk[80], file[80], empty[80];
static char fbuf[8192] __attribute__((aligned(4096))); /* the fort_* cases' buffer */
static volatile size_t fn = sizeof fbuf;              /* unknown to the compiler */

/* A heap block of N bytes (bad) or of the capacity NEED (good). */
static void *blk(size_t n, size_t need) { return malloc(bad ? n : need); }

/* Two pages, the second PROT (bad) or read-write (good): its first byte
 * is returned, K bytes below it are good. */
static char *edge(int prot, size_t k)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || (bad && mprotect(p + 4096, 4096, prot)))
		exit(3);
	return p + 4096 - k;
}

static int listener(int type, struct sockaddr_in *sa)
{
	socklen_t l = sizeof *sa;
	int s = socket(AF_INET, type | SOCK_NONBLOCK, 0);

	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)sa, sizeof *sa) || getsockname(s, (struct sockaddr *)sa, &l) ||
	    (type == SOCK_STREAM && listen(s, 1)))
		exit(3);
	return s;
}

/* The too-large capacities: a sockaddr_storage for a sockaddr_in. */
#define SS sizeof(struct sockaddr_storage)

static void c_readlink(void) { char *b = blk(24, 256); SITE(); r = readlink(lnk, b, 256); }
static void c_readlinkat(void) { char *b = blk(24, 256); SITE(); r = readlinkat(AT_FDCWD, lnk, b, 256); }
static void c_getcwd(void) { char *b = blk(24, 4096); SITE(); r = getcwd(b, 4096) ? 0 : -1; }
static void c_getcwd_null(void) { char *b; SITE(); b = getcwd(NULL, 0); r = b ? (long)strlen(b) : -1; }
static void c_getdents64(void)
{
	char *b = blk(56, 4096);
	int fd = open(empty, O_RDONLY | O_DIRECTORY);
	SITE(); r = getdents64(fd, b, 4096);
}
static void c_getrandom(void) { char *b = edge(PROT_READ, 16); SITE(); r = getrandom(b, 32, 0); }
static void c_getxattr(void) { char *b = blk(24, 256); SITE(); r = getxattr(file, "user.rwc", b, 256); }
static void c_lgetxattr(void) { char *b = blk(24, 256); SITE(); r = lgetxattr(file, "user.rwc", b, 256); }
static void c_fgetxattr(void)
{
	char *b = blk(24, 256);
	int fd = open(file, O_RDONLY);
	SITE(); r = fgetxattr(fd, "user.rwc", b, 256);
}
static void c_getxattr_query(void) { char *b = malloc(1); SITE(); r = getxattr(file, "user.rwc", b, 0); }
static void c_listxattr(void) { char *b = blk(24, 256); SITE(); r = listxattr(file, b, 256); }
static void c_llistxattr(void) { char *b = blk(24, 256); SITE(); r = llistxattr(file, b, 256); }
static void c_flistxattr(void)
{
	char *b = blk(24, 256);
	int fd = open(file, O_RDONLY);
	SITE(); r = flistxattr(fd, b, 256);
}
/* glibc copies the name (at most 65 bytes with its NUL) */
static void c_gethostname(void) { char *b = blk(72, 256); SITE(); r = gethostname(b, 256); }
static void c_getdomainname(void) { char *b = blk(72, 256); SITE(); r = getdomainname(b, 256); }
static void c_getgroups(void)
{
	gid_t *b = blk(24, 64 * sizeof(gid_t));
	if (getgroups(0, NULL) > 6)
		exit(77); /* more groups than the small block holds */
	SITE(); r = getgroups(64, b);
}
static void c_getgroups_query(void) { gid_t *b = malloc(1); SITE(); r = getgroups(0, b); r = r >= 0; }
/* a size the kernel refuses (not whole longs): nothing is written */
static void c_sched_getaffinity(void) { cpu_set_t *m = blk(24, 28); SITE(); r = sched_getaffinity(0, 28, m); }
static void c_epoll_wait(void)
{
	struct epoll_event *e = blk(24, 64 * sizeof *e);
	int ep = epoll_create1(0);
	SITE(); r = epoll_wait(ep, e, 64, 0);
}
static void c_epoll_pwait(void)
{
	struct epoll_event *e = blk(24, 64 * sizeof *e);
	int ep = epoll_create1(0);
	SITE(); r = epoll_pwait(ep, e, 64, 0, NULL);
}
static void c_epoll_pwait2(void)
{
	struct epoll_event *e = blk(24, 64 * sizeof *e);
	struct timespec t = {0, 0};
	int ep = epoll_create1(0);
	SITE(); r = epoll_pwait2(ep, e, 64, &t, NULL);
}
/* poll writes every revents back: the bad half runs into a read-only page */
static void c_poll(void)
{
	struct pollfd *p = (struct pollfd *)edge(PROT_READ, 3 * sizeof *p);
	for (int i = 0; i < 3; i++)
		p[i] = (struct pollfd){.fd = 0, .events = 0};
	SITE(); r = poll(p, 4, 0);
}
static void c_ppoll(void)
{
	struct pollfd *p = (struct pollfd *)edge(PROT_NONE, 3 * sizeof *p);
	struct timespec t = {0, 0};
	for (int i = 0; i < 3; i++)
		p[i] = (struct pollfd){.fd = 0, .events = 0};
	SITE(); r = ppoll(p, 4, &t, NULL);
}
/* nfds 1100: 18 longs of each set; the kernel copies only the bits of
 * the descriptors the process has room for (64 here) */
static void c_select(void)
{
	fd_set *s = blk(136, 144);
	struct timeval t = {0, 0};
	memset(s, 0, bad ? 136 : 144);
	SITE(); r = select(1100, s, NULL, NULL, &t);
}
static void c_pselect(void)
{
	fd_set *s = blk(136, 144);
	struct timespec t = {0, 0};
	memset(s, 0, bad ? 136 : 144);
	SITE(); r = pselect(1100, NULL, s, NULL, &t, NULL);
}
static void c_accept(void)
{
	struct sockaddr_in sa;
	int s = listener(SOCK_STREAM, &sa);
	socklen_t l = SS;
	void *a = blk(24, SS);
	SITE(); r = accept(s, a, &l);
}
static void c_accept4(void)
{
	struct sockaddr_in sa;
	int s = listener(SOCK_STREAM, &sa);
	socklen_t l = SS;
	void *a = blk(24, SS);
	SITE(); r = accept4(s, a, &l, SOCK_CLOEXEC);
}
static void c_accept_addrlen(void)
{
	struct sockaddr_in sa;
	int s = listener(SOCK_STREAM, &sa);
	socklen_t *l = (socklen_t *)edge(PROT_NONE, 2);
	void *a = malloc(SS);
	if (!bad)
		*l = SS;
	SITE(); r = accept(s, a, l);
}
static void c_getsockname(void)
{
	struct sockaddr_in sa;
	int s = listener(SOCK_STREAM, &sa);
	socklen_t l = SS;
	void *a = blk(24, SS);
	SITE(); r = getsockname(s, a, &l); r = r ? r : (long)l;
}
static void c_getpeername(void)
{
	int sv[2];
	socklen_t l = SS;
	void *a = blk(24, SS);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	SITE(); r = getpeername(sv[0], a, &l); r = r ? r : (long)l;
}
static void c_getsockopt(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t l = 64;
	int *v = blk(24, 64);
	SITE(); r = getsockopt(s, SOL_SOCKET, SO_TYPE, v, &l); r = r ? r : *v * 100 + (long)l;
}
static void c_setsockopt(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int *v = blk(24, 64);
	*v = 1;
	SITE(); r = setsockopt(s, SOL_SOCKET, SO_REUSEADDR, v, 64);
}
static void c_bind(void)
{
	struct sockaddr_in *a = blk(24, SS);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	memset(a, 0, 16);
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	SITE(); r = bind(s, (struct sockaddr *)a, SS);
}
static void c_connect(void)
{
	struct sockaddr_in sa, *a = blk(24, SS);
	int l = listener(SOCK_STREAM, &sa), s = socket(AF_INET, SOCK_STREAM, 0);
	memcpy(a, &sa, sizeof sa);
	SITE(); r = connect(s, (struct sockaddr *)a, SS); close(l);
}
static void c_sendto(void)
{
	struct sockaddr_in sa, *a = blk(24, SS);
	int u = listener(SOCK_DGRAM, &sa), s = socket(AF_INET, SOCK_DGRAM, 0);
	memcpy(a, &sa, sizeof sa);
	SITE(); r = sendto(s, "hi", 2, 0, (struct sockaddr *)a, SS); close(u);
}
static void c_recvfrom(void)
{
	struct sockaddr_in sa;
	int u = listener(SOCK_DGRAM, &sa), s = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t l = SS;
	char b[8];
	void *a = blk(24, SS);
	sendto(s, "hi", 2, 0, (struct sockaddr *)&sa, sizeof sa);
	SITE(); r = recvfrom(u, b, sizeof b, 0, a, &l); r = r < 0 ? r : r * 1000 + (long)l;
}
static mqd_t mq(void)
{
	char name[32];
	struct mq_attr at = {.mq_maxmsg = 1, .mq_msgsize = 64};
	mqd_t q;
	snprintf(name, sizeof name, "/rwcv-%d", (int)getpid());
	q = mq_open(name, O_RDWR | O_CREAT | O_NONBLOCK, 0600, &at);
	mq_unlink(name);
	if (q == (mqd_t)-1)
		exit(77);
	return q;
}
static void c_mq_receive(void) { mqd_t q = mq(); char *b = blk(24, 64); SITE(); r = mq_receive(q, b, 64, NULL); }
static void c_mq_timedreceive(void)
{
	mqd_t q = mq();
	char *b = blk(24, 64);
	struct timespec t = {0, 0};
	SITE(); r = mq_timedreceive(q, b, 64, NULL, &t);
}
static void c_msgrcv(void)
{
	int q = msgget(IPC_PRIVATE, 0600);
	void *b = blk(24, sizeof(long) + 64);
	if (q < 0)
		exit(77);
	SITE(); r = msgrcv(q, b, 64, 0, IPC_NOWAIT);
	msgctl(q, IPC_RMID, NULL);
}
/* syscall(): the same checks by number */
static void c_syscall_readlink(void) { char *b = blk(24, 256); SITE(); r = syscall(SYS_readlinkat, AT_FDCWD, lnk, b, 256); }
static void c_syscall_epoll_pwait(void)
{
	struct epoll_event *e = blk(24, 64 * sizeof *e);
	int ep = epoll_create1(0);
	SITE(); r = syscall(SYS_epoll_pwait, ep, e, 64, 0, NULL, 8);
}
static void c_syscall_getsockopt(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	socklen_t l = 64;
	int *v = blk(24, 64);
	SITE(); r = syscall(SYS_getsockopt, s, SOL_SOCKET, SO_TYPE, v, &l); r = r ? r : *v * 100 + (long)l;
}
static void c_syscall_getcwd(void) { char *b = blk(24, 4096); SITE(); r = syscall(SYS_getcwd, b, 4096); }
static void c_syscall_getdents64(void)
{
	char *b = blk(56, 4096);
	int fd = open(empty, O_RDONLY | O_DIRECTORY);
	SITE(); r = syscall(SYS_getdents64, fd, b, 4096);
}
static void c_syscall_getxattr(void) { char *b = blk(24, 256); SITE(); r = syscall(SYS_getxattr, file, "user.rwc", b, 256); }
static void c_syscall_sched_getaffinity(void) { void *m = blk(24, 28); SITE(); r = syscall(SYS_sched_getaffinity, 0, 28, m); }
static void c_syscall_pselect6(void)
{
	fd_set *s = blk(136, 144);
	struct timespec t = {0, 0};
	memset(s, 0, bad ? 136 : 144);
	SITE(); r = syscall(SYS_pselect6, 1100, s, NULL, NULL, &t, NULL);
}
static void c_syscall_accept4(void)
{
	struct sockaddr_in sa;
	int s = listener(SOCK_STREAM, &sa);
	socklen_t l = SS;
	void *a = blk(24, SS);
	SITE(); r = syscall(SYS_accept4, s, a, &l, 0);
}
static void c_syscall_recvfrom(void)
{
	struct sockaddr_in sa;
	int u = listener(SOCK_DGRAM, &sa), s = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t l = SS;
	char b[8];
	void *a = blk(24, SS);
	sendto(s, "hi", 2, 0, (struct sockaddr *)&sa, sizeof sa);
	SITE(); r = syscall(SYS_recvfrom, u, b, sizeof b, 0, a, &l); r = r < 0 ? r : r * 1000 + (long)l;
}
static void c_syscall_sendto(void)
{
	struct sockaddr_in sa, *a = blk(24, SS);
	int u = listener(SOCK_DGRAM, &sa), s = socket(AF_INET, SOCK_DGRAM, 0);
	memcpy(a, &sa, sizeof sa);
	SITE(); r = syscall(SYS_sendto, s, "hi", 2, 0, a, SS); close(u);
}
static void c_syscall_connect(void)
{
	struct sockaddr_in sa, *a = blk(24, SS);
	int l = listener(SOCK_STREAM, &sa), s = socket(AF_INET, SOCK_STREAM, 0);
	memcpy(a, &sa, sizeof sa);
	SITE(); r = syscall(SYS_connect, s, a, SS); close(l);
}
static void c_syscall_msgrcv(void)
{
	int q = msgget(IPC_PRIVATE, 0600);
	void *b = blk(24, sizeof(long) + 64);
	if (q < 0)
		exit(77);
	SITE(); r = syscall(SYS_msgrcv, q, b, 64, 0, IPC_NOWAIT);
	msgctl(q, IPC_RMID, NULL);
}

/* The fortified twins: fbuf's size is known; the bad half makes its
 * second page read-only (each call leaves it unwritten). */
static void fort(void)
{
	if (bad && mprotect(fbuf + 4096, 4096, PROT_READ))
		exit(3);
}
static void c_fort_readlink(void) { fort(); SITE(); r = readlink(lnk, fbuf, fn); }
static void c_fort_readlinkat(void) { fort(); SITE(); r = readlinkat(AT_FDCWD, lnk, fbuf, fn); }
static void c_fort_getcwd(void) { fort(); SITE(); r = getcwd(fbuf, fn) ? 0 : -1; }
static void c_fort_gethostname(void) { fort(); SITE(); r = gethostname(fbuf, fn); }
static void c_fort_getdomainname(void) { fort(); SITE(); r = getdomainname(fbuf, fn); }
static void c_fort_getgroups(void) { fort(); SITE(); r = getgroups((int)(fn / sizeof(gid_t)), (gid_t *)fbuf); r = r >= 0; }
static void c_fort_poll(void) { fort(); SITE(); r = poll((struct pollfd *)fbuf, fn / sizeof(struct pollfd), 0); }
static void c_fort_ppoll(void)
{
	struct timespec t = {0, 0};
	fort(); SITE(); r = ppoll((struct pollfd *)fbuf, fn / sizeof(struct pollfd), &t, NULL);
}

/* The arrays a vector call hands the kernel, against their objects: a
 * heap block whose requested size ends inside the array's last entry
 * (in its padding or the slack glibc gives: nothing past the block is
 * written), a global of one entry handed as two (the second: whatever
 * the binary put after it, never read by /dev/null's write). */
static char seg[8];
static struct iovec g_iov[1] = {{seg, sizeof seg}};
static int null_fd(void)
{
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		exit(3);
	return fd;
}
/* (good calls first: the bad one then meets the fast path's warm caches) */
static void warm_writev(int fd, const struct iovec *v)
{
	for (int k = 0; k < 4; k++)
		if (writev(fd, v, 1) != (ssize_t)v[0].iov_len)
			exit(3);
}
static void c_writev_array(void)
{
	/* 2 iovecs at +8 of a block of 36 bytes (40 usable): bytes 28..31 of the array past it */
	struct iovec *v = (struct iovec *)((char *)malloc(bad ? 36 : 40) + 8);
	int fd = null_fd();
	v[0] = v[1] = g_iov[0];
	warm_writev(fd, v);
	SITE(); r = writev(fd, v, 2);
}
static void c_writev_garray(void)
{
	int fd = null_fd();
	warm_writev(fd, g_iov);
	SITE(); r = writev(fd, g_iov, bad ? 2 : 1);
}
static void c_recvmmsg_array(void)
{
	/* 2 mmsghdrs (128 bytes) in a block of 124 (136 usable): the second's padding past it */
	struct mmsghdr *m = calloc(1, bad ? 124 : 128);
	int sv[2];
	if (!m || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		exit(3);
	SITE(); r = recvmmsg(sv[0], m, 2, MSG_DONTWAIT, NULL);
}
static void c_sendmsg_msghdr(void)
{
	/* a msghdr (56 bytes) in a block of 52 (56 usable): its padding past it */
	struct msghdr *m = calloc(1, bad ? 52 : 56);
	int sv[2];
	if (!m || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		exit(3);
	m->msg_iov = g_iov;
	m->msg_iovlen = 1;
	SITE(); r = sendmsg(sv[0], m, MSG_DONTWAIT);
}

#define C VCASE
static const struct victim_case cases[] = {
	C(writev_array), C(writev_garray), C(recvmmsg_array), C(sendmsg_msghdr),
	C(readlink), C(readlinkat), C(getcwd), C(getcwd_null), C(getdents64), C(getrandom),
	C(getxattr), C(lgetxattr), C(fgetxattr), C(getxattr_query), C(listxattr), C(llistxattr),
	C(flistxattr), C(gethostname), C(getdomainname), C(getgroups), C(getgroups_query),
	C(sched_getaffinity), C(epoll_wait), C(epoll_pwait), C(epoll_pwait2), C(poll), C(ppoll),
	C(select), C(pselect), C(accept), C(accept4), C(accept_addrlen),
	C(getsockname), C(getpeername), C(getsockopt), C(setsockopt), C(bind), C(connect),
	C(sendto), C(recvfrom), C(mq_receive), C(mq_timedreceive), C(msgrcv),
	C(syscall_readlink), C(syscall_epoll_pwait), C(syscall_getsockopt), C(syscall_getcwd),
	C(syscall_getdents64), C(syscall_getxattr), C(syscall_sched_getaffinity), C(syscall_pselect6),
	C(syscall_accept4), C(syscall_recvfrom), C(syscall_sendto), C(syscall_connect), C(syscall_msgrcv),
	C(fort_readlink), C(fort_readlinkat), C(fort_getcwd), C(fort_gethostname),
	C(fort_getdomainname), C(fort_getgroups), C(fort_poll), C(fort_ppoll),
};

static void setup(void)
{
	int fd;

	strcpy(dir, "/tmp/rwcv-XXXXXX");
	if (!mkdtemp(dir))
		exit(3);
	snprintf(lnk, sizeof lnk, "%s/l", dir);
	snprintf(file, sizeof file, "%s/f", dir);
	snprintf(empty, sizeof empty, "%s/e", dir);
	fd = open(file, O_WRONLY | O_CREAT, 0600);
	if (fd < 0 || symlink("ab", lnk) || mkdir(empty, 0700))
		exit(3);
	close(fd);
	if (chdir("/")) /* a short working directory */
		exit(3);
}

static void cleanup(void)
{
	unlink(lnk);
	unlink(file);
	rmdir(empty);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	int i = victim_pick(argc, argv, "victim_capacity", cases, &bad), e;

	if (i < 0)
		return 2;
	setup();
	errno = 0;
	cases[i].fn();
	e = errno;
	cleanup();
	printf("result %ld %s\n", r, e ? strerrorname_np(e) : "0");
	return 0;
}
