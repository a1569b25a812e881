/* sockaddr.c: the exported socket calls that pass an address or an
 * option with its length (accept/accept4, getsockname, getpeername,
 * getsockopt with an in/out length; setsockopt, bind, connect with a
 * length).  An in/out length is checked readable and writable before it
 * is read (args.h).  Signal-safe on the good path; no allocation. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <sys/socket.h>

#include "entry/args.h"

#define SA RWC_SOCKADDR_PTR
#define CSA RWC_SOCKADDR_PTR
#define ADDR_OUT(addr, alen) RWC_ADDR_OUT("addr", addr, alen)

RWC_ENTRY int accept(int fd, __SOCKADDR_ARG addr, socklen_t *restrict addrlen)
{
	RWC_ARGS_FD(accept, -1, fd, ADDR_OUT(SA(addr), addrlen));
	return REAL(accept)(fd, addr, addrlen);
}

RWC_ENTRY int accept4(int fd, __SOCKADDR_ARG addr, socklen_t *restrict addrlen, int flags)
{
	RWC_ARGS_FD(accept4, -1, fd, ADDR_OUT(SA(addr), addrlen));
	return REAL(accept4)(fd, addr, addrlen, flags);
}

RWC_ENTRY int getsockname(int fd, __SOCKADDR_ARG addr, socklen_t *restrict addrlen)
{
	RWC_ARGS_FD(getsockname, -1, fd, ADDR_OUT(SA(addr), addrlen));
	return REAL(getsockname)(fd, addr, addrlen);
}

RWC_ENTRY int getpeername(int fd, __SOCKADDR_ARG addr, socklen_t *restrict addrlen)
{
	RWC_ARGS_FD(getpeername, -1, fd, ADDR_OUT(SA(addr), addrlen));
	return REAL(getpeername)(fd, addr, addrlen);
}

/* A NULL optval is left to the protocol (some options take none). */
RWC_ENTRY int getsockopt(int fd, int level, int optname, void *restrict optval, socklen_t *restrict optlen)
{
	RWC_ARGS_FD(getsockopt, -1, fd, RWC_INT("level", level), RWC_INT("optname", optname),
		    RWC_MEM("optlen", optval ? (const void *)optlen : NULL, sizeof(socklen_t), RWC_RW),
		    RWC_LENP("optval", optval, optlen, RWC_W));
	return REAL(getsockopt)(fd, level, optname, optval, optlen);
}

RWC_ENTRY int setsockopt(int fd, int level, int optname, const void *optval, socklen_t optlen)
{
	RWC_ARGS_FD(setsockopt, -1, fd, RWC_INT("level", level), RWC_INT("optname", optname),
		    RWC_MEM("optval", optval, optlen, RWC_R), RWC_INT("optlen", optlen));
	return REAL(setsockopt)(fd, level, optname, optval, optlen);
}

RWC_ENTRY int bind(int fd, __CONST_SOCKADDR_ARG addr, socklen_t addrlen)
{
	RWC_ARGS_FD(bind, -1, fd, RWC_MEM("addr", CSA(addr), addrlen, RWC_R), RWC_INT("addrlen", addrlen));
	return REAL(bind)(fd, addr, addrlen);
}

RWC_ENTRY int connect(int fd, __CONST_SOCKADDR_ARG addr, socklen_t addrlen)
{
	RWC_ARGS_FD(connect, -1, fd, RWC_MEM("addr", CSA(addr), addrlen, RWC_R), RWC_INT("addrlen", addrlen));
	return REAL(connect)(fd, addr, addrlen);
}
