/* interpose.c: the exported I/O entry points, generated from entries.def.
 * Each is a few lines: the fast path (fastpath.h), else describe the call
 * and run the checks (call.c); then the real call.  Signal-safe on the good path; see call.h. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

/* glibc's stdio.h makes these macros when optimizing. */
#undef fread_unlocked
#undef fwrite_unlocked
#undef fgets_unlocked

#include "entry/call.h"
#include "bounds/bounds.h"
#include "entry/fastpath.h"
#include "bounds/vcache.h"
#include "entry/args.h"
#include "base/real.h"

/* (no_reorder: emitted in the order written, so that an entry point and
 * its parts -- read, read_stk, read_rest -- share their pages of .text
 * and the table's first entries, read and write, come first.) */
#define ENTRY __attribute__((visibility("default"), noinline, no_reorder))
#define PART __attribute__((noinline, no_reorder))

/* Every body names its caller ra_ (the return address into it) and sp_
 * (its stack pointer at the call): CALLER declares them in an entry point
 * written in one piece; a split one (SPLIT) passes them to its rest. */
#define CALLER const void *ra_ = __builtin_return_address(0), *sp_ = RWC_CALLER_SP()
/* A buffer's bytes known good: mapped as needed, and within their heap
 * block, stack frame or global. */
#define GOOD(b, n, nd) rwc_good_buf((uintptr_t)(b), n, nd, sp_, ra_)
#define GOODV(nd, t) rwc_fast_iov(iov, iovcnt, nd, t, sp_, ra_)

/* The fast path: a call whose bytes this thread already knows are good. */
#define FAST(cond, call)                                                \
	if (RWC_LIKELY(cond))                                           \
		return call

/* An entry point in parts: inline, the verdict cache's look at the buffer
 * B of CNT bytes the call needs ND of (vcache.h), when EXTRA holds too,
 * and the real call; out of line, the look at the frame cache for a
 * buffer in the caller's stack (n_stk), and the rest (the body, with ra_
 * and sp_).  So the quick path calls nothing and sets up no frame for
 * the check; a real function not bound yet is bound by the rest. */
#define P_(...) __VA_ARGS__
#define SPLIT(ret, n, params, args, b, cnt, nd, extra, ...)              \
	static PART ret n##_rest(P_ params, const void *ra_, const void *sp_) \
	{                                                               \
		__VA_ARGS__                                             \
	}                                                               \
	static PART ret n##_stk(P_ params, const void *ra_, const void *sp_) \
	{                                                               \
		uintptr_t a_ = (uintptr_t)(b);                          \
		if (RWC_LIKELY((extra) && (cnt) <= UINTPTR_MAX - a_ &&  \
			       rwc_stack_in_frame(a_, a_ + (cnt), (uintptr_t)sp_, (uintptr_t)ra_))) \
			return REAL(n)(P_ args);                        \
		return n##_rest(P_ args, ra_, sp_);                     \
	}                                                               \
	ENTRY ret n(P_ params)                                          \
	{                                                               \
		__typeof__(&n) f_ = (__typeof__(&n))__atomic_load_n(&rwc_real_ptr[RWC_IDX_##n], __ATOMIC_ACQUIRE); \
		uintptr_t a_ = (uintptr_t)(b);                          \
		const void *sp_ = RWC_CALLER_SP();                      \
		if (RWC_UNLIKELY(!rwc_vc_off_stack(a_, (uintptr_t)sp_))) \
			return n##_stk(P_ args, __builtin_return_address(0), sp_); \
		if (RWC_LIKELY(f_ && (extra) && rwc_vc_lookup(a_, cnt, nd))) \
			return f_(P_ args);                             \
		return n##_rest(P_ args, __builtin_return_address(0), sp_); \
	}

/* Describe, check; on a failed check (RWCHECK_ACTION=efault) return
 * FAILED: -1, or 0 (fread/fwrite), NULL (fgets). */
#define CHECK_OR(failed, ...)                                           \
	struct rwc_call c = {__VA_ARGS__, .caller = (void *)ra_, .caller_sp = (void *)sp_,        \
			     .caller_fp = RWC_ENTRY_FP()};                                  \
	if (RWC_UNLIKELY(rwc_enter(&c)))                                \
		return failed
#define CHECK(...) CHECK_OR(-1, __VA_ARGS__)

/* A fortified call: the object size the compiler saw at the buffer (glibc
 * aborts when the count is larger; the report comes first). */
#define OBJ(sz) .has_objsize = 1, .objsize = (sz)

/* The entry point's name and number (entry_id.h). */
#define NAMED(n) .name = #n, .entry = RWC_IDX_##n

#define BUFC(n, nd, b, cnt) NAMED(n), .shape = RWC_SHAPE_BUF, .need = (nd), .fd = fd, \
	.buf = (b), .count = (cnt)
#define IOVC(n, nd) NAMED(n), .shape = RWC_SHAPE_IOV, .need = (nd), .fd = fd, \
	.iov = iov, .iovcnt = iovcnt

#define RWC_BUF(n, nd, bt)                                              \
	SPLIT(ssize_t, n, (int fd, bt buf, size_t count), (fd, buf, count), \
	      buf, count, nd, 1,                                        \
		FAST(GOOD(buf, count, nd), REAL(n)(fd, buf, count)); \
		CHECK(BUFC(n, nd, buf, count));                         \
		return REAL(n)(fd, buf, count);)
#define RWC_BUF_CHK(n)                                                  \
	SPLIT(ssize_t, n, (int fd, void *buf, size_t count, size_t buflen), (fd, buf, count, buflen), \
	      buf, count, RWC_NEED_WRITE, count <= buflen,              \
		FAST(GOOD(buf, count, RWC_NEED_WRITE) && count <= buflen, REAL(n)(fd, buf, count, buflen)); \
		CHECK(BUFC(n, RWC_NEED_WRITE, buf, count), OBJ(buflen)); \
		return REAL(n)(fd, buf, count, buflen);)
#define RWC_BUF_OFF(n, nd, bt, ot)                                      \
	SPLIT(ssize_t, n, (int fd, bt buf, size_t count, ot off), (fd, buf, count, off), \
	      buf, count, nd, !rwc_check_offset(off, count, 0),         \
		FAST(GOOD(buf, count, nd) && !rwc_check_offset(off, count, 0), \
		     REAL(n)(fd, buf, count, off));                     \
		CHECK(BUFC(n, nd, buf, count), .has_offset = 1, .offset = off); \
		return REAL(n)(fd, buf, count, off);)
#define RWC_BUF_OFF_CHK(n, ot)                                          \
	SPLIT(ssize_t, n, (int fd, void *buf, size_t count, ot off, size_t buflen), \
	      (fd, buf, count, off, buflen),                            \
	      buf, count, RWC_NEED_WRITE, count <= buflen && !rwc_check_offset(off, count, 0), \
		FAST(GOOD(buf, count, RWC_NEED_WRITE) && count <= buflen && \
		     !rwc_check_offset(off, count, 0), REAL(n)(fd, buf, count, off, buflen)); \
		CHECK(BUFC(n, RWC_NEED_WRITE, buf, count), .has_offset = 1, .offset = off, \
		      OBJ(buflen));                                     \
		return REAL(n)(fd, buf, count, off, buflen);)
#define RWC_IOV(n, nd)                                                  \
	ENTRY ssize_t n(int fd, const struct iovec *iov, int iovcnt)    \
	{                                                               \
		CALLER;                                                 \
		size_t t;                                               \
		FAST(GOODV(nd, &t), REAL(n)(fd, iov, iovcnt)); \
		CHECK(IOVC(n, nd));                                     \
		return REAL(n)(fd, iov, iovcnt);                        \
	}
#define RWC_IOV_OFF(n, nd, ot)                                          \
	ENTRY ssize_t n(int fd, const struct iovec *iov, int iovcnt, ot off) \
	{                                                               \
		CALLER;                                                 \
		size_t t;                                               \
		FAST(GOODV(nd, &t) && !rwc_check_offset(off, t, 0), \
		     REAL(n)(fd, iov, iovcnt, off));                    \
		CHECK(IOVC(n, nd), .has_offset = 1, .offset = off);     \
		return REAL(n)(fd, iov, iovcnt, off);                   \
	}
#define RWC_IOV_OFF2(n, nd, ot)                                         \
	ENTRY ssize_t n(int fd, const struct iovec *iov, int iovcnt, ot off, int flags) \
	{                                                               \
		CALLER;                                                 \
		size_t t;                                               \
		FAST(GOODV(nd, &t) && !rwc_check_offset(off, t, 1), \
		     REAL(n)(fd, iov, iovcnt, off, flags));             \
		CHECK(IOVC(n, nd), .has_offset = 1, .offset = off,      \
		      .offset_minus_one_ok = 1);                        \
		return REAL(n)(fd, iov, iovcnt, off, flags);            \
	}
#define RWC_SOCK(n, nd, bt)                                             \
	SPLIT(ssize_t, n, (int fd, bt buf, size_t len, int flags), (fd, buf, len, flags), \
	      buf, len, nd, 1,                                          \
		FAST(GOOD(buf, len, nd), REAL(n)(fd, buf, len, flags)); \
		CHECK(BUFC(n, nd, buf, len));                           \
		return REAL(n)(fd, buf, len, flags);)
#define RWC_SOCK_CHK(n)                                                 \
	SPLIT(ssize_t, n, (int fd, void *buf, size_t len, size_t buflen, int flags), \
	      (fd, buf, len, buflen, flags), buf, len, RWC_NEED_WRITE, len <= buflen, \
		FAST(GOOD(buf, len, RWC_NEED_WRITE) && len <= buflen,   \
		     REAL(n)(fd, buf, len, buflen, flags));             \
		CHECK(BUFC(n, RWC_NEED_WRITE, buf, len), OBJ(buflen));  \
		return REAL(n)(fd, buf, len, buflen, flags);)
/* recvfrom's src_addr and sendto's dest_addr: an argument list (args.h). */
#define SRC_ADDR const struct rwc_arg a_[] = {RWC_ADDR_OUT("src_addr", RWC_SOCKADDR_PTR(addr), alen)}
#define GOODA() rwc_fast_args(a_, sizeof a_ / sizeof a_[0], sp_, ra_)
#define ARGS .args = a_, .nargs = sizeof a_ / sizeof a_[0]
#define RWC_RECVFROM(n)                                                 \
	ENTRY ssize_t n(int fd, void *__restrict buf, size_t len, int flags, \
			__SOCKADDR_ARG addr, socklen_t *__restrict alen) \
	{                                                               \
		CALLER;                                                 \
		SRC_ADDR;                                               \
		FAST(GOOD(buf, len, RWC_NEED_WRITE) && GOODA(),         \
		     REAL(n)(fd, buf, len, flags, addr, alen));         \
		CHECK(BUFC(n, RWC_NEED_WRITE, buf, len), ARGS);         \
		return REAL(n)(fd, buf, len, flags, addr, alen);        \
	}
#define RWC_RECVFROM_CHK(n)                                             \
	ENTRY ssize_t n(int fd, void *__restrict buf, size_t len, size_t buflen, \
			int flags, __SOCKADDR_ARG addr, socklen_t *__restrict alen) \
	{                                                               \
		CALLER;                                                 \
		SRC_ADDR;                                               \
		FAST(GOOD(buf, len, RWC_NEED_WRITE) && len <= buflen && GOODA(), \
		     REAL(n)(fd, buf, len, buflen, flags, addr, alen)); \
		CHECK(BUFC(n, RWC_NEED_WRITE, buf, len), OBJ(buflen), ARGS); \
		return REAL(n)(fd, buf, len, buflen, flags, addr, alen); \
	}
#define RWC_SENDTO(n)                                                   \
	ENTRY ssize_t n(int fd, const void *buf, size_t len, int flags, \
			__CONST_SOCKADDR_ARG addr, socklen_t alen)      \
	{                                                               \
		CALLER;                                                 \
		const struct rwc_arg a_[] = {RWC_MEM("dest_addr", RWC_SOCKADDR_PTR(addr), alen, \
						     RWC_NEED_READ), RWC_INT("addrlen", alen)}; \
		FAST(GOOD(buf, len, RWC_NEED_READ) && GOODA(),          \
		     REAL(n)(fd, buf, len, flags, addr, alen));         \
		CHECK(BUFC(n, RWC_NEED_READ, buf, len), ARGS);          \
		return REAL(n)(fd, buf, len, flags, addr, alen);        \
	}
#define RWC_MSG(n, nd, mt)                                              \
	ENTRY ssize_t n(int fd, mt msg, int flags)                      \
	{                                                               \
		CALLER;                                                 \
		CHECK(NAMED(n), .shape = RWC_SHAPE_MSG, .need = (nd), .fd = fd, .msg = msg); \
		return REAL(n)(fd, msg, flags);                         \
	}

/* recvmmsg has a timeout argument, sendmmsg none. */
#define RWC_MMSG_TIMEOUT_(...) __VA_ARGS__
#define RWC_MMSG_NONE_(...)
#define RWC_MMSG(n, nd, extra)                                          \
	ENTRY int n(int fd, struct mmsghdr *vec, unsigned int vlen, int flags \
		    extra(, struct timespec *timeout))                  \
	{                                                               \
		CALLER;                                                 \
		CHECK(NAMED(n), .shape = RWC_SHAPE_MMSG, .need = (nd), .fd = fd, \
		      .msg = vec, .iovcnt = (long)vlen);                \
		return REAL(n)(fd, vec, vlen, flags extra(, timeout));  \
	}
/* A transfer between descriptors: nothing of the caller's is read or
 * written but the offset pointers (the kernel reads and updates them). */
#define RWC_SENDFILE(n, ot)                                             \
	ENTRY ssize_t n(int out_fd, int in_fd, ot *off, size_t count)   \
	{                                                               \
		CALLER;                                                 \
		FAST(!off && count <= (size_t)SSIZE_MAX, REAL(n)(out_fd, in_fd, off, count)); \
		CHECK(NAMED(n), .shape = RWC_SHAPE_XFER, .fd = in_fd, .fd2 = out_fd, \
		      .count = count, .offp = {(int64_t *)off, NULL}, .offname = {"offset", NULL}); \
		return REAL(n)(out_fd, in_fd, off, count);              \
	}
#define RWC_XFER(n)                                                     \
	ENTRY ssize_t n(int in, off64_t *off_in, int out, off64_t *off_out, size_t len, \
			unsigned int flags)                             \
	{                                                               \
		CALLER;                                                 \
		FAST(!off_in && !off_out && len <= (size_t)SSIZE_MAX,   \
		     REAL(n)(in, off_in, out, off_out, len, flags));    \
		CHECK(NAMED(n), .shape = RWC_SHAPE_XFER, .fd = in, .fd2 = out, .count = len, \
		      .offp = {(int64_t *)off_in, (int64_t *)off_out},  \
		      .offname = {"off_in", "off_out"});                \
		return REAL(n)(in, off_in, out, off_out, len, flags);   \
	}
/* The local iovecs are this process's buffers; the remote ones are not. */
#define RWC_PVM(n, nd)                                                  \
	ENTRY ssize_t n(pid_t pid, const struct iovec *iov, unsigned long iovcnt, \
			const struct iovec *riov, unsigned long riovcnt, unsigned long flags) \
	{                                                               \
		CALLER;                                                 \
		CHECK(NAMED(n), .shape = RWC_SHAPE_PVM, .need = (nd), .fd = pid, \
		      .iov = iov, .iovcnt = (long)iovcnt, .riov = riov, .riovcnt = (long)riovcnt); \
		return REAL(n)(pid, iov, iovcnt, riov, riovcnt, flags); \
	}
/* stdio: the caller's buffer against the requested size (stdio's own
 * reads and writes go to its buffer, inside libc).  size * n overflowing
 * is a count of SIZE_MAX: count-too-large. */
#define STDIO_COUNT(size, k) ((k) && (size) > SIZE_MAX / (k) ? SIZE_MAX : (size) * (k))
#define STDIOC(n, nd, b, cnt) NAMED(n), .shape = RWC_SHAPE_BUF, .need = (nd), .fd = -1, \
	.stream = stream, .buf = (b), .count = (cnt)
#define RWC_STDIO(n, nd, bt)                                            \
	SPLIT(size_t, n, (bt ptr, size_t size, size_t k, FILE *stream), (ptr, size, k, stream), \
	      ptr, STDIO_COUNT(size, k), nd, 1,                         \
		size_t cnt = STDIO_COUNT(size, k);                      \
		FAST(GOOD(ptr, cnt, nd), REAL(n)(ptr, size, k, stream)); \
		CHECK_OR(0, STDIOC(n, nd, ptr, cnt));                   \
		return REAL(n)(ptr, size, k, stream);)
#define RWC_FREAD_CHK(n)                                                \
	SPLIT(size_t, n, (void *ptr, size_t ptrlen, size_t size, size_t k, FILE *stream), \
	      (ptr, ptrlen, size, k, stream),                           \
	      ptr, STDIO_COUNT(size, k), RWC_NEED_WRITE, STDIO_COUNT(size, k) <= ptrlen, \
		size_t cnt = STDIO_COUNT(size, k);                      \
		FAST(GOOD(ptr, cnt, RWC_NEED_WRITE) && cnt <= ptrlen,   \
		     REAL(n)(ptr, ptrlen, size, k, stream));            \
		CHECK_OR(0, STDIOC(n, RWC_NEED_WRITE, ptr, cnt), OBJ(ptrlen)); \
		return REAL(n)(ptr, ptrlen, size, k, stream);)
#define RWC_FGETS(n)                                                    \
	SPLIT(char *, n, (char *s, int k, FILE *stream), (s, k, stream), \
	      s, (size_t)k, RWC_NEED_WRITE, k > 0,                      \
		size_t cnt = k > 0 ? (size_t)k : 0;                     \
		FAST(GOOD(s, cnt, RWC_NEED_WRITE), REAL(n)(s, k, stream)); \
		CHECK_OR(NULL, STDIOC(n, RWC_NEED_WRITE, s, cnt));      \
		return REAL(n)(s, k, stream);)
#define RWC_FGETS_CHK(n)                                                \
	SPLIT(char *, n, (char *s, size_t size, int k, FILE *stream), (s, size, k, stream), \
	      s, (size_t)k, RWC_NEED_WRITE, k > 0 && (size_t)k <= size, \
		size_t cnt = k > 0 ? (size_t)k : 0;                     \
		FAST(GOOD(s, cnt, RWC_NEED_WRITE) && cnt <= size, REAL(n)(s, size, k, stream)); \
		CHECK_OR(NULL, STDIOC(n, RWC_NEED_WRITE, s, cnt), OBJ(size)); \
		return REAL(n)(s, size, k, stream);)

/* Written by hand in capacity.c, readiness.c, sockaddr.c. */
#define RWC_CAP(n, file)

#include "base/entries.def"
