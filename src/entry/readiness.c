/* readiness.c: the exported calls that wait for descriptors and write
 * back an array or sets the program sized (epoll_wait/pwait/pwait2,
 * poll/ppoll and their fortified twins, select/pselect).  Each describes
 * its arguments (args.h) and makes the real call; the checks are
 * check/callcheck.c's.  Signal-safe on the good path; no allocation. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "entry/args.h"

/* The kernel fails maxevents <= 0 (EINVAL) without writing. */
#define NEVENTS ((maxevents) > 0 ? (size_t)(maxevents) * sizeof *events : 0)
#define EVENTS RWC_MEM("events", events, NEVENTS, RWC_W), RWC_INT("maxevents", maxevents)
#define GOOD_EVENTS RWC_GOOD(events, NEVENTS, RWC_W)

RWC_ENTRY int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
	RWC_ARGS_IF_(GOOD_EVENTS, epoll_wait, -1, epfd, 0, EVENTS);
	return REAL(epoll_wait)(epfd, events, maxevents, timeout);
}

RWC_ENTRY int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
			  const sigset_t *sigmask)
{
	RWC_ARGS_IF_(GOOD_EVENTS, epoll_pwait, -1, epfd, 0, EVENTS);
	return REAL(epoll_pwait)(epfd, events, maxevents, timeout, sigmask);
}

RWC_ENTRY int epoll_pwait2(int epfd, struct epoll_event *events, int maxevents,
			   const struct timespec *timeout, const sigset_t *sigmask)
{
	RWC_ARGS_IF_(GOOD_EVENTS && RWC_GOOD(timeout, sizeof *timeout, RWC_R), epoll_pwait2, -1, epfd, 0,
		     EVENTS, RWC_MEM("timeout", timeout, sizeof *timeout, RWC_R));
	return REAL(epoll_pwait2)(epfd, events, maxevents, timeout, sigmask);
}

/* The kernel reads every pollfd and writes its revents back. */
#define FDS() RWC_MEM("fds", fds, nfds * sizeof *fds, RWC_RW), RWC_INT("nfds", nfds)
#define GOOD_FDS RWC_GOOD(fds, nfds * sizeof *fds, RWC_RW)

RWC_ENTRY int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	RWC_ARGS_IF_(GOOD_FDS, poll, -1, -1, 1, FDS());
	return REAL(poll)(fds, nfds, timeout);
}

RWC_ENTRY int __poll_chk(struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen)
{
	RWC_ARGS_IF_(GOOD_FDS, __poll_chk, -1, -1, 1, FDS());
	return REAL(__poll_chk)(fds, nfds, timeout, fdslen);
}

/* glibc's ppoll and pselect copy the timeout: it is only read. */
RWC_ENTRY int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask)
{
	RWC_ARGS_IF_(GOOD_FDS && RWC_GOOD(tmo_p, sizeof *tmo_p, RWC_R), ppoll, -1, -1, 1,
		     FDS(), RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R));
	return REAL(ppoll)(fds, nfds, tmo_p, sigmask);
}

RWC_ENTRY int __ppoll_chk(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p,
			  const sigset_t *sigmask, size_t fdslen)
{
	RWC_ARGS_IF_(GOOD_FDS && RWC_GOOD(tmo_p, sizeof *tmo_p, RWC_R), __ppoll_chk, -1, -1, 1,
		     FDS(), RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R));
	return REAL(__ppoll_chk)(fds, nfds, tmo_p, sigmask, fdslen);
}

/* The bytes of an fd_set the kernel reads and writes back: nfds bits in
 * whole longs (a negative nfds fails, EINVAL).  A set larger than
 * fd_set's 128 bytes that the program allocated is fine. */
#define SETBYTES(nfds) ((nfds) > 0 ? ((size_t)(nfds) + 8 * sizeof(long) - 1) / (8 * sizeof(long)) * sizeof(long) : 0)
#define SETS(nfds) RWC_INT("nfds", nfds), RWC_MEM("readfds", readfds, SETBYTES(nfds), RWC_RW), \
	RWC_MEM("writefds", writefds, SETBYTES(nfds), RWC_RW),                               \
	RWC_MEM("exceptfds", exceptfds, SETBYTES(nfds), RWC_RW)
#define GOOD_SETS(nfds) (RWC_GOOD(readfds, SETBYTES(nfds), RWC_RW) &&                          \
			 RWC_GOOD(writefds, SETBYTES(nfds), RWC_RW) &&                         \
			 RWC_GOOD(exceptfds, SETBYTES(nfds), RWC_RW))

/* glibc's select writes the time left back into the timeout. */
RWC_ENTRY int select(int nfds, fd_set *restrict readfds, fd_set *restrict writefds, fd_set *restrict exceptfds,
		     struct timeval *restrict timeout)
{
	RWC_ARGS_IF_(GOOD_SETS(nfds) && RWC_GOOD(timeout, sizeof *timeout, RWC_RW), select, -1, -1, 1,
		     SETS(nfds), RWC_MEM("timeout", timeout, sizeof *timeout, RWC_RW));
	return REAL(select)(nfds, readfds, writefds, exceptfds, timeout);
}

RWC_ENTRY int pselect(int nfds, fd_set *restrict readfds, fd_set *restrict writefds, fd_set *restrict exceptfds,
		      const struct timespec *restrict timeout, const sigset_t *restrict sigmask)
{
	RWC_ARGS_IF_(GOOD_SETS(nfds) && RWC_GOOD(timeout, sizeof *timeout, RWC_R), pselect, -1, -1, 1,
		     SETS(nfds), RWC_MEM("timeout", timeout, sizeof *timeout, RWC_R));
	return REAL(pselect)(nfds, readfds, writefds, exceptfds, timeout, sigmask);
}
