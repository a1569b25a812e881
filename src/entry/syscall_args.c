/* syscall_args.c: syscall() with the numbers of the calls that hand the
 * kernel a capacity (capacity.c, readiness.c, sockaddr.c): their
 * arguments as a list (args.h), with the raw system call's semantics (the
 * kernel writes a ppoll/pselect6 timeout back; getcwd has no NULL buf of
 * glibc's).  Pure description: no system call, no allocation. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>

#include "base/entry_id.h"
#include "entry/args.h"

#define P(i) ((const void *)a[i])
#define N(i) ((size_t)a[i])
#define INTN(i) RWC_KERNEL_INT(a[i])
#define SYS(s, nofd) case SYS_##s: c->sysname = #s; c->entry = RWC_ENTRY_SYS_##s; c->no_fd = nofd
#define ADDR_OUT(ia, il) RWC_ADDR_OUT("addr", P(ia), (const socklen_t *)P(il))
#define LONGBITS (8 * sizeof(long))
#define SET(i, n) RWC_MEM(#n, P(i), (INTN(0) + LONGBITS - 1) / LONGBITS * sizeof(long), RWC_RW)
#define SETS RWC_INT("nfds", a[0]), SET(1, readfds), SET(2, writefds), SET(3, exceptfds)
#define EVENTS RWC_MEM("events", P(1), INTN(2) * sizeof(struct epoll_event_), RWC_W), RWC_INT("maxevents", a[2])
#define FDS RWC_MEM("fds", P(0), N(1) * 8, RWC_RW), RWC_INT("nfds", a[1])
#define TS(i, nm, nd) RWC_MEM(nm, P(i), sizeof(struct timespec), nd)
#define L(...) do { const struct rwc_arg l_[] = {__VA_ARGS__};                              \
		for (c->nargs = 0; c->nargs < sizeof l_ / sizeof l_[0]; c->nargs++)          \
			args[c->nargs] = l_[c->nargs];                                        \
	} while (0); return 1

/* struct epoll_event's size on this ABI (packed on x86-64: 12 bytes). */
struct epoll_event_ {
	uint32_t events;
	uint64_t data;
}
#ifdef __x86_64__
__attribute__((packed))
#endif
;

/* Files and processes. */
static int files(long nr, const long *a, struct rwc_call *c, struct rwc_arg *args)
{
	switch (nr) {
#ifdef SYS_readlink
	SYS(readlink, 1); L(RWC_MEM("buf", P(1), INTN(2), RWC_W), RWC_INT("bufsiz", a[2]));
#endif
	SYS(readlinkat, 0); L(RWC_MEM("buf", P(2), INTN(3), RWC_W), RWC_INT("bufsiz", a[3]));
	SYS(getcwd, 1); L(RWC_MEM("buf", P(0), N(1), RWC_W), RWC_INT("size", a[1]));
	SYS(getdents64, 0); L(RWC_MEM("dirp", P(1), (size_t)(unsigned int)a[2], RWC_W), RWC_INT("count", a[2]));
	SYS(getrandom, 1); L(RWC_MEM("buf", P(0), N(1), RWC_W), RWC_INT("buflen", a[1]));
	SYS(getxattr, 1); L(RWC_MEM("value", P(2), N(3) > 65536 ? 65536 : N(3), RWC_W), RWC_INT("size", a[3]));
	SYS(lgetxattr, 1); L(RWC_MEM("value", P(2), N(3) > 65536 ? 65536 : N(3), RWC_W), RWC_INT("size", a[3]));
	SYS(fgetxattr, 0); L(RWC_MEM("value", P(2), N(3) > 65536 ? 65536 : N(3), RWC_W), RWC_INT("size", a[3]));
	SYS(listxattr, 1); L(RWC_MEM("list", P(1), N(2) > 65536 ? 65536 : N(2), RWC_W), RWC_INT("size", a[2]));
	SYS(llistxattr, 1); L(RWC_MEM("list", P(1), N(2) > 65536 ? 65536 : N(2), RWC_W), RWC_INT("size", a[2]));
	SYS(flistxattr, 0); L(RWC_MEM("list", P(1), N(2) > 65536 ? 65536 : N(2), RWC_W), RWC_INT("size", a[2]));
	SYS(getgroups, 1); L(RWC_INT("size", a[0]), RWC_MEM("list", P(1), INTN(0) * sizeof(gid_t), RWC_W));
	SYS(sched_getaffinity, 1); L(RWC_INT("pid", a[0]), RWC_MEM("mask", P(2), N(1), RWC_W));
	SYS(mq_timedreceive, 0); L(RWC_MEM("msg_ptr", P(1), N(2), RWC_W), RWC_INT("msg_len", a[2]),
				   RWC_MEM("msg_prio", P(3), sizeof(unsigned), RWC_W), TS(4, "abs_timeout", RWC_R));
	SYS(msgrcv, 1); L(RWC_INT("msqid", a[0]), RWC_MEM("msgp", P(1), a[2] < 0 ? 0 : sizeof(long) + N(2), RWC_W),
			  RWC_INT("msgsz", a[2]));
	}
	return 0;
}

/* Readiness and sockets. */
static int events(long nr, const long *a, struct rwc_call *c, struct rwc_arg *args)
{
	switch (nr) {
#ifdef SYS_epoll_wait
	SYS(epoll_wait, 0); L(EVENTS);
#endif
	SYS(epoll_pwait, 0); L(EVENTS);
#ifdef SYS_epoll_pwait2
	SYS(epoll_pwait2, 0); L(EVENTS, TS(3, "timeout", RWC_R));
#endif
#ifdef SYS_poll
	SYS(poll, 1); L(FDS);
#endif
	SYS(ppoll, 1); L(FDS, TS(2, "tsp", RWC_RW));
#ifdef SYS_select
	SYS(select, 1); L(SETS, RWC_MEM("timeout", P(4), sizeof(struct timeval), RWC_RW));
#endif
	SYS(pselect6, 1); L(SETS, TS(4, "timeout", RWC_RW));
	SYS(accept, 0); L(ADDR_OUT(1, 2));
	SYS(accept4, 0); L(ADDR_OUT(1, 2));
	SYS(getsockname, 0); L(ADDR_OUT(1, 2));
	SYS(getpeername, 0); L(ADDR_OUT(1, 2));
	SYS(getsockopt, 0); L(RWC_INT("level", a[1]), RWC_INT("optname", a[2]),
			      RWC_MEM("optlen", a[3] ? P(4) : NULL, sizeof(socklen_t), RWC_RW),
			      RWC_LENP("optval", P(3), P(4), RWC_W));
	SYS(setsockopt, 0); L(RWC_INT("level", a[1]), RWC_INT("optname", a[2]),
			      RWC_MEM("optval", P(3), (socklen_t)a[4], RWC_R), RWC_INT("optlen", a[4]));
	SYS(bind, 0); L(RWC_MEM("addr", P(1), (socklen_t)a[2], RWC_R), RWC_INT("addrlen", a[2]));
	SYS(connect, 0); L(RWC_MEM("addr", P(1), (socklen_t)a[2], RWC_R), RWC_INT("addrlen", a[2]));
	}
	return 0;
}

int rwc_syscall_args(long nr, const long *a, struct rwc_call *c, struct rwc_arg *args)
{
	c->args = args;
	switch (nr) { /* describe() has made them buffer calls: the address too */
	case SYS_recvfrom:
		args[0] = (struct rwc_arg)RWC_MEM("addrlen", a[4] ? P(5) : NULL, sizeof(socklen_t), RWC_RW);
		args[1] = (struct rwc_arg)RWC_LENP("src_addr", P(4), P(5), RWC_W);
		c->nargs = 2;
		return 1;
	case SYS_sendto:
		args[0] = (struct rwc_arg)RWC_MEM("dest_addr", P(4), (socklen_t)a[5], RWC_R);
		c->nargs = 1;
		return 1;
	}
	if (!files(nr, a, c, args) && !events(nr, a, c, args))
		return 0;
	c->name = "syscall";
	c->shape = RWC_SHAPE_ARGS;
	c->fd = (int)a[0];
	return 1;
}
