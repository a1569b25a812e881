/* capacity.c: the exported calls that hand the kernel a buffer and its
 * capacity (readlink, getcwd, getdents64, getrandom, the xattr getters,
 * gethostname, getgroups, sched_getaffinity, mq_receive, msgrcv) and
 * their fortified twins.  Each describes its arguments (args.h) and makes
 * the real call; the checks are check/callcheck.c's.  Signal-safe on the
 * good path; no allocation. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <limits.h>
#include <mqueue.h>
#include <sched.h>
#include <sys/msg.h>
#include <sys/random.h>
#include <sys/xattr.h>
#include <dirent.h>
#include <unistd.h>

#include "entry/args.h"

/* glibc's getdents64 caps its count at INT_MAX. */
#define INTCAP(n) ((n) > (size_t)INT_MAX ? (size_t)INT_MAX : (n))
/* A fortified twin's count as glibc checks it against the compiler's
 * size (the raw count: past that size glibc aborts whatever the kernel
 * would take), else as the kernel takes it. */
#define CHK_COUNT(n, buflen, kernel) ((n) > (buflen) ? (n) : kernel(n))
/* The xattr calls copy at most XATTR_SIZE_MAX / XATTR_LIST_MAX (64 KiB)
 * whatever size the program passes. */
#define XATTR_CAP(n) ((n) > 65536 ? (size_t)65536 : (n))

RWC_ENTRY ssize_t readlink(const char *restrict path, char *restrict buf, size_t bufsiz)
{
	RWC_ARGS_NOFD(readlink, -1, RWC_MEM("buf", buf, RWC_KERNEL_INT(bufsiz), RWC_W), RWC_INT("bufsiz", bufsiz));
	return REAL(readlink)(path, buf, bufsiz);
}

RWC_ENTRY ssize_t readlinkat(int dirfd, const char *restrict path, char *restrict buf, size_t bufsiz)
{
	RWC_ARGS_FD(readlinkat, -1, dirfd, RWC_MEM("buf", buf, RWC_KERNEL_INT(bufsiz), RWC_W),
		    RWC_INT("bufsiz", bufsiz));
	return REAL(readlinkat)(dirfd, path, buf, bufsiz);
}

RWC_ENTRY ssize_t __readlink_chk(const char *path, char *buf, size_t bufsiz, size_t buflen)
{
	RWC_ARGS_NOFD(__readlink_chk, -1, RWC_MEM_OBJ("buf", buf, CHK_COUNT(bufsiz, buflen, RWC_KERNEL_INT), RWC_W, buflen),
		      RWC_INT("bufsiz", bufsiz));
	return REAL(__readlink_chk)(path, buf, bufsiz, buflen);
}

RWC_ENTRY ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t bufsiz, size_t buflen)
{
	RWC_ARGS_FD(__readlinkat_chk, -1, dirfd, RWC_MEM_OBJ("buf", buf, CHK_COUNT(bufsiz, buflen, RWC_KERNEL_INT), RWC_W, buflen),
		    RWC_INT("bufsiz", bufsiz));
	return REAL(__readlinkat_chk)(dirfd, path, buf, bufsiz, buflen);
}

/* A NULL buf is glibc's own allocation: nothing to check. */
RWC_ENTRY char *getcwd(char *buf, size_t size)
{
	RWC_ARGS_NOFD(getcwd, NULL, RWC_MEM("buf", buf, size, RWC_W), RWC_INT("size", size));
	return REAL(getcwd)(buf, size);
}

RWC_ENTRY char *__getcwd_chk(char *buf, size_t size, size_t buflen)
{
	RWC_ARGS_NOFD(__getcwd_chk, NULL, RWC_MEM_OBJ("buf", buf, size, RWC_W, buflen), RWC_INT("size", size));
	return REAL(__getcwd_chk)(buf, size, buflen);
}

RWC_ENTRY ssize_t getdents64(int fd, void *dirp, size_t count)
{
	RWC_ARGS_FD(getdents64, -1, fd, RWC_MEM("dirp", dirp, INTCAP(count), RWC_W), RWC_INT("count", count));
	return REAL(getdents64)(fd, dirp, count);
}

RWC_ENTRY ssize_t getrandom(void *buf, size_t buflen, unsigned int flags)
{
	RWC_ARGS_NOFD(getrandom, -1, RWC_MEM("buf", buf, buflen, RWC_W), RWC_INT("buflen", buflen));
	return REAL(getrandom)(buf, buflen, flags);
}

/* size 0 asks for the size: nothing is written. */
#define XATTR_GET(n, argt, arg, fdv, nofd)                                        \
	RWC_ENTRY ssize_t n(argt arg, const char *name, void *value, size_t size)  \
	{                                                                          \
		RWC_ARGS_CHECK_(n, -1, fdv, nofd, RWC_MEM("value", value, XATTR_CAP(size), RWC_W), \
				RWC_INT("size", size));                            \
		return REAL(n)(arg, name, value, size);                            \
	}
#define XATTR_LIST(n, argt, arg, fdv, nofd)                                       \
	RWC_ENTRY ssize_t n(argt arg, char *list, size_t size)                     \
	{                                                                          \
		RWC_ARGS_CHECK_(n, -1, fdv, nofd, RWC_MEM("list", list, XATTR_CAP(size), RWC_W), \
				RWC_INT("size", size));                            \
		return REAL(n)(arg, list, size);                                   \
	}
XATTR_GET(getxattr, const char *, path, -1, 1)
XATTR_GET(lgetxattr, const char *, path, -1, 1)
XATTR_GET(fgetxattr, int, fd, fd, 0)
XATTR_LIST(listxattr, const char *, path, -1, 1)
XATTR_LIST(llistxattr, const char *, path, -1, 1)
XATTR_LIST(flistxattr, int, fd, fd, 0)

#define NAME_GET(n)                                                               \
	RWC_ENTRY int n(char *name, size_t len)                                    \
	{                                                                          \
		RWC_ARGS_NOFD(n, -1, RWC_MEM("name", name, len, RWC_W), RWC_INT("len", len)); \
		return REAL(n)(name, len);                                         \
	}
#define NAME_GET_CHK(n)                                                           \
	RWC_ENTRY int n(char *name, size_t len, size_t buflen)                     \
	{                                                                          \
		RWC_ARGS_NOFD(n, -1, RWC_MEM_OBJ("name", name, len, RWC_W, buflen), RWC_INT("len", len)); \
		return REAL(n)(name, len, buflen);                                 \
	}
NAME_GET(gethostname)
NAME_GET(getdomainname)
NAME_GET_CHK(__gethostname_chk)
NAME_GET_CHK(__getdomainname_chk)

/* size 0 asks for the count; a negative size fails (EINVAL). */
#define GROUPS_CAP(size) ((size) > 0 ? (size_t)(size) * sizeof(gid_t) : 0)

RWC_ENTRY int getgroups(int size, gid_t list[])
{
	RWC_ARGS_NOFD(getgroups, -1, RWC_INT("size", size), RWC_MEM("list", list, GROUPS_CAP(size), RWC_W));
	return REAL(getgroups)(size, list);
}

RWC_ENTRY int __getgroups_chk(int size, gid_t list[], size_t listlen)
{
	RWC_ARGS_NOFD(__getgroups_chk, -1, RWC_INT("size", size),
		      RWC_MEM_OBJ("list", list, GROUPS_CAP(size), RWC_W, listlen));
	return REAL(__getgroups_chk)(size, list, listlen);
}

/* glibc clears the mask past what the kernel wrote: all of it is written. */
RWC_ENTRY int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask)
{
	RWC_ARGS_NOFD(sched_getaffinity, -1, RWC_INT("pid", pid), RWC_INT("cpusetsize", cpusetsize),
		      RWC_MEM("mask", mask, cpusetsize, RWC_W));
	return REAL(sched_getaffinity)(pid, cpusetsize, mask);
}

RWC_ENTRY ssize_t mq_receive(mqd_t mqdes, char *msg_ptr, size_t msg_len, unsigned int *msg_prio)
{
	RWC_ARGS_FD(mq_receive, -1, mqdes, RWC_MEM("msg_ptr", msg_ptr, msg_len, RWC_W),
		    RWC_INT("msg_len", msg_len), RWC_MEM("msg_prio", msg_prio, sizeof *msg_prio, RWC_W));
	return REAL(mq_receive)(mqdes, msg_ptr, msg_len, msg_prio);
}

RWC_ENTRY ssize_t mq_timedreceive(mqd_t mqdes, char *restrict msg_ptr, size_t msg_len,
				  unsigned int *restrict msg_prio, const struct timespec *restrict abs_timeout)
{
	RWC_ARGS_FD(mq_timedreceive, -1, mqdes, RWC_MEM("msg_ptr", msg_ptr, msg_len, RWC_W),
		    RWC_INT("msg_len", msg_len), RWC_MEM("msg_prio", msg_prio, sizeof *msg_prio, RWC_W),
		    RWC_MEM("abs_timeout", abs_timeout, sizeof *abs_timeout, RWC_R));
	return REAL(mq_timedreceive)(mqdes, msg_ptr, msg_len, msg_prio, abs_timeout);
}

/* The message is its type (a long), then msgsz bytes of text; a negative
 * size fails (EINVAL). */
RWC_ENTRY ssize_t msgrcv(int msqid, void *msgp, size_t msgsz, long msgtyp, int msgflg)
{
	size_t cap = (long)msgsz < 0 ? 0 : sizeof(long) + msgsz;

	RWC_ARGS_NOFD(msgrcv, -1, RWC_INT("msqid", msqid), RWC_MEM("msgp", msgp, cap, RWC_W),
		      RWC_INT("msgsz", msgsz));
	return REAL(msgrcv)(msqid, msgp, msgsz, msgtyp, msgflg);
}
