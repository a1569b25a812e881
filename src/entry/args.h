/* args.h: the entry points that hand the kernel a capacity (capacity.c,
 * readiness.c, sockaddr.c; syscall() with their numbers: syscall_args.c)
 * describe their arguments as a list (common.h's struct rwc_arg) and
 * check it with these macros: the fast path (fastpath.h) first, else the
 * full checks (call.c).  Used only inside an exported
 * entry point (the caller's frame and return address are its own).
 * Signal-safe on the good path; no allocation. */
#ifndef RWC_ARGS_H
#define RWC_ARGS_H

#include "base/real.h"
#include "entry/call.h"
#include "entry/fastpath.h"

#define RWC_ENTRY __attribute__((visibility("default"), noinline))

#define RWC_W RWC_NEED_WRITE
#define RWC_R RWC_NEED_READ
#define RWC_RW (RWC_NEED_READ | RWC_NEED_WRITE)

/* A count the kernel takes as an int: up to that int's bytes, none for
 * one <= 0 (it fails those, EINVAL, without touching the buffer):
 * readlink's (1ul << 32) + 40 is 40. */
#define RWC_KERNEL_INT(n) ((int)(n) > 0 ? (size_t)(int)(n) : 0)

/* One argument: memory of N bytes; memory of *LENP bytes (LENP proved
 * readable by an earlier entry); an integer shown in the report. */
#define RWC_MEM(nm, ptr, len, nd) {.name = nm, .p = (ptr), .n = (len), .need = (nd)}
/* Memory of N bytes at a fortified twin's buffer, where the compiler saw
 * an object of OSZ bytes (glibc aborts the call when N is larger; the
 * report comes first). */
#define RWC_MEM_OBJ(nm, ptr, len, nd, osz) \
	{.name = nm, .p = (ptr), .n = (len), .need = (nd), .has_obj = 1, .obj = (osz)}
#define RWC_LENP(nm, ptr, lp, nd) {.name = nm, .p = (ptr), .lenp = (lp), .need = (nd)}
#define RWC_INT(nm, v) {.name = nm, .n = (size_t)(long)(v), .kind = RWC_ARG_INT}

/* The pointer in glibc's transparent union of socket addresses. */
#if defined __USE_GNU && !defined __cplusplus
#define RWC_SOCKADDR_PTR(a) ((a).__sockaddr__)
#else
#define RWC_SOCKADDR_PTR(a) (a)
#endif

/* An address the kernel writes for *alen bytes (as passed in), alen read
 * and written back; without the address (NULL) it touches neither. */
#define RWC_ADDR_OUT(nm, addr, alen)                                                  \
	RWC_MEM("addrlen", (addr) ? (const void *)(alen) : NULL, sizeof(socklen_t), RWC_RW), \
	RWC_LENP(nm, addr, alen, RWC_W)

/* The full checks of the arguments L_ of entry point N (FDV its
 * descriptor, or NOFD 1 when it has none), for the call made at PC with
 * the caller's stack pointer SP; returns FAILED from the function it is
 * in when the action is efault and a check failed. */
#define RWC_ARGS_SLOW_AT_(l_, n, failed, fdv, nofd, sp, pc)                     \
	do {                                                                    \
		struct rwc_call c_ = {.name = #n, .entry = RWC_IDX_##n,         \
			.shape = RWC_SHAPE_ARGS, .fd = (fdv), .no_fd = (nofd),  \
			.args = l_, .nargs = sizeof l_ / sizeof l_[0],          \
			.caller = (pc), .caller_sp = (sp),                      \
			.caller_fp = RWC_ENTRY_FP()};                           \
		if (RWC_UNLIKELY(rwc_enter(&c_)))                               \
			return failed;                                          \
	} while (0)
/* The fast path over the list itself (fastpath.h), then the full checks. */
#define RWC_ARGS_CHECK_(n, failed, fdv, nofd, ...)                              \
	do {                                                                    \
		const struct rwc_arg a_[] = {__VA_ARGS__};                      \
		if (!RWC_LIKELY(rwc_fast_args(a_, sizeof a_ / sizeof a_[0],    \
					      RWC_CALLER_SP(), __builtin_return_address(0)))) \
			RWC_ARGS_SLOW_AT_(a_, n, failed, fdv, nofd, RWC_CALLER_SP(), \
					  __builtin_return_address(0));         \
	} while (0)
#define RWC_ARGS_FD(n, failed, fdv, ...) RWC_ARGS_CHECK_(n, failed, fdv, 0, __VA_ARGS__)
#define RWC_ARGS_NOFD(n, failed, ...) RWC_ARGS_CHECK_(n, failed, -1, 1, __VA_ARGS__)

/* syscall() with number NR and arguments A: describes the capacity calls
 * in C, their arguments in ARGS (RWC_ARGS_MAX); for recvfrom and sendto
 * (already described as buffer calls) adds the address.  0: not one of
 * them (C's args then unset). */
int rwc_syscall_args(long nr, const long *a, struct rwc_call *c, struct rwc_arg *args);

#endif
