/* readiness.c: the exported calls that wait for descriptors and write
 * back an array or sets the program sized (epoll_wait/pwait/pwait2,
 * poll/ppoll and their fortified twins, select/pselect).  Each describes
 * its buffers; a call is answered first from the thread's memory of the
 * last good call of its kind (below), then by the fast path (fastpath.h),
 * else its arguments (args.h) go to check/callcheck.c's checks.
 * Signal-safe on the good path; no allocation. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "entry/args.h"

/* A loop calls these with the same buffers over and over, and each call
 * returns at once when nothing is ready: a few loads must answer it.
 * Each thread remembers, per kind of call, the span [lo, hi) of the
 * last good call's buffers: under the map view's generation GEN every
 * byte of it is mapped for NEED (the map view's verdicts hold until the
 * generation moves), and when GLOB the global check's cache holds all
 * of it in one object or one run without objects (that cache's entries
 * are of a generation too), so each buffer inside it is good for both.
 * The heap and stack checks depend on more than the generation (frees,
 * frames): every call asks them again, call-free: a span below the
 * stack pointer with no heap block below it, or one inside a frame the
 * stack check has cached for this call site.  Anything else takes the
 * fast path and the checks (rd_more); a good call there is remembered.
 * SEQ is odd while the entry is written: a signal handler's call that
 * interrupts the write neither trusts nor writes it, and a read that a
 * handler's write interrupted sees SEQ changed. */
struct rd_memo {
	unsigned seq;
	unsigned need; /* enum rwc_need bits */
	int glob;
	uint64_t gen;  /* 0: empty (rwc_gen starts at 1) */
	uintptr_t lo, hi;
};
enum { RD_EPOLL, RD_POLL, RD_SELECT, RD_KINDS };
static __thread struct rd_memo rd_memo[RD_KINDS] __attribute__((tls_model("initial-exec")));

/* One buffer of a call: N bytes at P (NULL or 0 bytes: none). */
struct rd_buf {
	const void *p;
	size_t n;
	unsigned need;
};

/* The span [lo, hi) of a call's buffers (lo > hi: none), NEED what the
 * kernel does with any of them; BAD: a count too large, or one wraps. */
struct rd_span {
	uintptr_t lo, hi;
	unsigned need;
	int bad;
};

static inline __attribute__((always_inline)) struct rd_span rd_span(const struct rd_buf *b, unsigned nb)
{
	struct rd_span s = {.lo = UINTPTR_MAX, .hi = 0, .need = 0, .bad = 0};

	if (nb == 1) { /* the common case, without the min and max */
		uintptr_t a = (uintptr_t)b->p;

		if (a && b->n)
			s = (struct rd_span){a, a + b->n, b->need, a + b->n < a || b->n > (size_t)SSIZE_MAX};
		return s;
	}
#pragma GCC unroll 4
	for (unsigned i = 0; i < nb; i++) {
		uintptr_t a = (uintptr_t)b[i].p;

		if (!a || !b[i].n)
			continue;
		s.bad |= a + b[i].n < a || b[i].n > (size_t)SSIZE_MAX;
		s.lo = a < s.lo ? a : s.lo;
		s.hi = a + b[i].n > s.hi ? a + b[i].n : s.hi;
		s.need |= b[i].need;
	}
	return s;
}

/* The stack check's part of rd_hit: each buffer at or above SP in a
 * frame or variable the stack check cached for the call at PC. */
static inline __attribute__((always_inline)) int rd_stack(const struct rd_buf *b, unsigned nb, uintptr_t sp,
							  uintptr_t pc)
{
#pragma GCC unroll 4
	for (unsigned i = 0; i < nb; i++) {
		uintptr_t a = (uintptr_t)b[i].p;

		if (a && b[i].n && (a < sp || !rwc_stack_in_frame(a, a + b[i].n, sp, pc)))
			return 0;
	}
	return 1;
}

/* The buffers B are known good without a call (see struct rd_memo);
 * SP and PC: the caller's stack pointer and return address. */
static inline __attribute__((always_inline)) int rd_hit(int kind, const struct rd_buf *b, unsigned nb,
							uintptr_t sp, uintptr_t pc)
{
	const struct rd_memo *m = &rd_memo[kind];
	struct rd_span s = rd_span(b, nb);
	unsigned on, seq;
	int glob;

	if (s.lo >= s.hi)
		return s.lo == UINTPTR_MAX && !s.bad; /* no buffer */
	seq = m->seq;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if ((seq & 1) || s.bad || m->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE) || s.lo < m->lo ||
	    s.hi > m->hi || (s.need & ~m->need))
		return 0;
	glob = m->glob;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (m->seq != seq)
		return 0;
	on = rwc_bounds_on();
	if (!(on & RWC_CHECK_STACK) || s.hi - 1 < sp) /* not the stack check's: heap, global */
		return (!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below_span(s.lo, s.hi - 1)) &&
		       (glob || !(on & RWC_CHECK_GLOBAL));
	return rd_stack(b, nb, sp, pc);
}

/* Remembers the span of B good under generation G when the map view's
 * cache holds all of it for its needs (signal-safe: see struct rd_memo). */
static void rd_remember(int kind, const struct rd_buf *b, unsigned nb, uint64_t g)
{
	struct rd_memo *m = &rd_memo[kind];
	struct rd_span s = rd_span(b, nb);
	unsigned seq = m->seq;

	if ((seq & 1) || s.lo >= s.hi || s.bad || !rwc_fast_range((const void *)s.lo, s.hi - s.lo, s.need))
		return;
	m->seq = seq + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	m->gen = g;
	m->lo = s.lo;
	m->hi = s.hi;
	m->need = s.need;
	m->glob = rwc_glob_fast_span(s.lo, s.hi);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	m->seq = seq + 2;
}

/* The fast path (fastpath.h) knows every buffer of B good. */
static inline __attribute__((always_inline)) int rd_good(const struct rd_buf *b, unsigned nb, void *sp, void *pc)
{
	for (unsigned i = 0; i < nb; i++)
		if (b[i].p && b[i].n && !(rwc_fast_buf(b[i].p, b[i].n, b[i].need) &&
					  rwc_bounds_fast(b[i].p, b[i].n, sp, pc)))
			return 0;
	return 1;
}

/* Entry point N of kind KIND (PARAMS, ARGS: its parameters and their
 * names; BUFS the initializers of its struct rd_buf array) in two halves.
 * The entry jumps to the real function when rd_hit knows the buffers
 * good; else N_more, with the caller's SP and PC: the fast path (a good
 * call is remembered), else the checks of the argument list (the rest:
 * FDV the descriptor, NOFD 1 when there is none), then the real call.
 * Both are tail calls: the entry needs no frame of its own. */
#define RD_ENTRY(n, kind, PARAMS, ARGS, BUFS, fdv, nofd, ...)                                      \
	static __attribute__((noinline)) int n##_more RD_SPLICE(PARAMS, void *sp, void *pc)        \
	{                                                                                          \
		uint64_t g_ = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);                         \
		const struct rd_buf b_[] = {RD_UNPAREN BUFS};                                      \
		const unsigned nb_ = sizeof b_ / sizeof b_[0];                                     \
		if (RWC_LIKELY(rd_good(b_, nb_, sp, pc))) {                                        \
			rd_remember(kind, b_, nb_, g_);                                            \
		} else {                                                                           \
			const struct rwc_arg a_[] = {__VA_ARGS__};                                 \
			RWC_ARGS_SLOW_AT_(a_, n, -1, fdv, nofd, sp, pc);                           \
		}                                                                                  \
		return REAL(n) ARGS;                                                               \
	}                                                                                          \
	RWC_ENTRY __attribute__((flatten)) int n PARAMS                                            \
	{                                                                                          \
		const struct rd_buf b_[] = {RD_UNPAREN BUFS};                                      \
		void *real_;                                                                       \
		if (RWC_LIKELY(rd_hit(kind, b_, sizeof b_ / sizeof b_[0], (uintptr_t)RWC_CALLER_SP(), \
				      (uintptr_t)__builtin_return_address(0))) &&                  \
		    RWC_LIKELY(real_ = __atomic_load_n(&rwc_real_ptr[RWC_IDX_##n], __ATOMIC_ACQUIRE))) \
			return ((__typeof__(&n))real_) ARGS;                                       \
		return n##_more RD_SPLICE(ARGS, RWC_CALLER_SP(), __builtin_return_address(0));     \
	}
/* (a, b) + x, y -> (a, b, x, y); (a, b) -> a, b */
#define RD_SPLICE(p, ...) (RD_UNPAREN p, __VA_ARGS__)
#define RD_UNPAREN(...) __VA_ARGS__

/* The kernel fails maxevents <= 0 (EINVAL) without writing. */
#define NEVENTS ((maxevents) > 0 ? (size_t)(maxevents) * sizeof *events : 0)
#define EVENTS RWC_MEM("events", events, NEVENTS, RWC_W), RWC_INT("maxevents", maxevents)

RD_ENTRY(epoll_wait, RD_EPOLL, (int epfd, struct epoll_event *events, int maxevents, int timeout),
	 (epfd, events, maxevents, timeout), ({events, NEVENTS, RWC_W}), epfd, 0, EVENTS)

RD_ENTRY(epoll_pwait, RD_EPOLL,
	 (int epfd, struct epoll_event *events, int maxevents, int timeout, const sigset_t *sigmask),
	 (epfd, events, maxevents, timeout, sigmask), ({events, NEVENTS, RWC_W}), epfd, 0, EVENTS)

RD_ENTRY(epoll_pwait2, RD_EPOLL,
	 (int epfd, struct epoll_event *events, int maxevents, const struct timespec *timeout,
	  const sigset_t *sigmask),
	 (epfd, events, maxevents, timeout, sigmask),
	 ({events, NEVENTS, RWC_W}, {timeout, sizeof *timeout, RWC_R}), epfd, 0,
	 EVENTS, RWC_MEM("timeout", timeout, sizeof *timeout, RWC_R))

/* The kernel reads every pollfd and writes its revents back; glibc's
 * ppoll and pselect copy the timeout: it is only read. */
#define FDS RWC_MEM("fds", fds, nfds * sizeof *fds, RWC_RW), RWC_INT("nfds", nfds)
#define FDS_BUF {fds, nfds * sizeof *fds, RWC_RW}

RD_ENTRY(poll, RD_POLL, (struct pollfd *fds, nfds_t nfds, int timeout), (fds, nfds, timeout),
	 (FDS_BUF), -1, 1, FDS)

RD_ENTRY(__poll_chk, RD_POLL, (struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen),
	 (fds, nfds, timeout, fdslen), (FDS_BUF), -1, 1, FDS)

RD_ENTRY(ppoll, RD_POLL,
	 (struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask),
	 (fds, nfds, tmo_p, sigmask), (FDS_BUF, {tmo_p, sizeof *tmo_p, RWC_R}), -1, 1,
	 FDS, RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R))

RD_ENTRY(__ppoll_chk, RD_POLL,
	 (struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask,
	  size_t fdslen),
	 (fds, nfds, tmo_p, sigmask, fdslen), (FDS_BUF, {tmo_p, sizeof *tmo_p, RWC_R}), -1, 1,
	 FDS, RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R))

/* The bytes of an fd_set the kernel reads and writes back: nfds bits in
 * whole longs (a negative nfds fails, EINVAL).  A set larger than
 * fd_set's 128 bytes that the program allocated is fine. */
#define SETBYTES ((nfds) > 0 ? ((size_t)(nfds) + 8 * sizeof(long) - 1) / (8 * sizeof(long)) * sizeof(long) : 0)
#define SETS RWC_INT("nfds", nfds), RWC_MEM("readfds", readfds, SETBYTES, RWC_RW), \
	RWC_MEM("writefds", writefds, SETBYTES, RWC_RW),                          \
	RWC_MEM("exceptfds", exceptfds, SETBYTES, RWC_RW)
#define SET_BUFS(tnd) {readfds, SETBYTES, RWC_RW}, {writefds, SETBYTES, RWC_RW}, \
	{exceptfds, SETBYTES, RWC_RW}, {timeout, sizeof *timeout, tnd}

/* glibc's select writes the time left back into the timeout. */
RD_ENTRY(select, RD_SELECT,
	 (int nfds, fd_set *restrict readfds, fd_set *restrict writefds, fd_set *restrict exceptfds,
	  struct timeval *restrict timeout),
	 (nfds, readfds, writefds, exceptfds, timeout), (SET_BUFS(RWC_RW)), -1, 1,
	 SETS, RWC_MEM("timeout", timeout, sizeof *timeout, RWC_RW))

RD_ENTRY(pselect, RD_SELECT,
	 (int nfds, fd_set *restrict readfds, fd_set *restrict writefds, fd_set *restrict exceptfds,
	  const struct timespec *restrict timeout, const sigset_t *restrict sigmask),
	 (nfds, readfds, writefds, exceptfds, timeout, sigmask), (SET_BUFS(RWC_R)), -1, 1,
	 SETS, RWC_MEM("timeout", timeout, sizeof *timeout, RWC_R))
