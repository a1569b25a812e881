/* entry_id.h: the number that names an entry point in a call site's key
 * (perproc.h, dedup.h): its index in real.h's table of real functions (the
 * rows of entries.def, then the others, syscall among them); syscall()
 * with a checked number has a number of its own per system call, above
 * that table.  Declares constants only. */
#ifndef RWC_ENTRY_ID_H
#define RWC_ENTRY_ID_H

#include "base/real.h"

/* The system calls syscall.c and syscall_args.c check (64-bit ABIs check
 * them all). */
#define RWC_SYSCALLS_CHECKED(X)                                             \
	X(read) X(write) X(pread64) X(pwrite64) X(recvfrom) X(sendto)       \
	X(readv) X(writev) X(preadv) X(pwritev) X(preadv2) X(pwritev2)      \
	X(recvmsg) X(sendmsg)                                               \
	X(readlink) X(readlinkat) X(getcwd) X(getdents64) X(getrandom)      \
	X(getxattr) X(lgetxattr) X(fgetxattr) X(listxattr) X(llistxattr)    \
	X(flistxattr) X(getgroups) X(sched_getaffinity) X(mq_timedreceive)  \
	X(msgrcv) X(epoll_wait) X(epoll_pwait) X(epoll_pwait2) X(poll)      \
	X(ppoll) X(select) X(pselect6) X(accept) X(accept4) X(getsockname)  \
	X(getpeername) X(getsockopt) X(setsockopt) X(bind) X(connect)

enum rwc_syscall_entry {
	RWC_ENTRY_SYS_BELOW_ = RWC_REAL_COUNT - 1,
#define RWC_ENTRY_SYS_(s) RWC_ENTRY_SYS_##s,
	RWC_SYSCALLS_CHECKED(RWC_ENTRY_SYS_)
#undef RWC_ENTRY_SYS_
	RWC_ENTRY_COUNT
};

_Static_assert(RWC_ENTRY_COUNT <= 256, "an entry point's number fits in a site key's byte");

#endif
