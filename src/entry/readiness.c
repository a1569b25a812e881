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
 * Each thread remembers, per kind of call, the last good call: its entry
 * point and buffers (the same pointers and sizes: the same needs), the
 * bounds checks in force ON, the map view's generation GEN (every byte
 * was found mapped as needed; that holds until the generation moves),
 * and why its bounds were good, MODE:
 *   RD_NONE   no buffer;
 *   RD_STACK  every buffer at or above the sp, each in a frame or variable
 *             the stack check cached for the call (return address PC,
 *             caller's sp SP) with no chain of frames above it to confirm:
 *             a verdict that depends on PC and SP alone, so the same call
 *             from the same place is good (from elsewhere: as RD_FRAMES);
 *   RD_FRAMES every buffer at or above the sp, in frames or variables the
 *             stack check cached: its cache asked again each call
 *             (N_stack);
 *   RD_BELOW  the span of the buffers below the sp (or the stack check
 *             off), the global check's cache knew each buffer good (that
 *             cache is of a generation too): the heap check is asked
 *             again each call (blocks come and go, call-free: no block
 *             can start below any of it);
 *   RD_HEAP   the span below the sp, each buffer in a heap block: the
 *             heap check's fast look at each again every call (N_heap; a
 *             heap buffer is not a global: fastbounds.h).
 * Anything else takes the fast path and the checks (N_more); a good call
 * there is remembered when it is one of the two that missed last (struct
 * rd_missed): three or more calls taking turns do not pay for remembering
 * each other.  SEQ is odd while an entry is written: a signal handler's
 * call that interrupts the write neither trusts nor writes it, and a read
 * that a handler's write interrupted sees SEQ changed. */
#define RD_MAXB 4
enum rd_mode { RD_NONE, RD_STACK, RD_FRAMES, RD_BELOW, RD_HEAP };
struct rd_call {
	unsigned key;             /* RD_KEY(entry point, ON) */
	unsigned mode;            /* enum rd_mode */
	uint64_t gen;             /* 0: empty (rwc_gen starts at 1) */
	uintptr_t sp, pc;         /* RD_STACK */
	uintptr_t below;          /* RD_BELOW, RD_HEAP: the sp must be above it
	                           * (the span's last byte; 0: stack check off) */
	struct rwc_hm_span heap;  /* RD_BELOW: the span as the heap map asks */
	const void *p[RD_MAXB];
	size_t n[RD_MAXB];
};
struct rd_memo {
	unsigned seq;
	struct rd_call c;
};
/* The last two good calls that missed, per kind: their entry points and
 * first buffers (a hint only). */
struct rd_missed {
	const void *p[2];
	size_t n[2];
	unsigned entry[2], next;
};
#define RD_KEY(entry, on) ((unsigned)(entry) << 8 | (on))
enum { RD_EPOLL, RD_POLL, RD_SELECT, RD_KINDS };
/* Per kind: [0] the call remembered last, asked by the entry; [1] the
 * one before, asked by N_more (two calls taking turns both hit). */
static __thread struct rd_memo rd_memo[RD_KINDS][2] __attribute__((tls_model("initial-exec")));
static __thread struct rd_missed rd_missed[RD_KINDS] __attribute__((tls_model("initial-exec")));

/* One buffer of a call: N bytes at P (NULL or 0 bytes: none). */
struct rd_buf {
	const void *p;
	size_t n;
	unsigned need;
};

/* The heap check's fast look at each buffer of B. */
static inline __attribute__((always_inline)) int rd_heap(const struct rd_buf *b, unsigned nb)
{
#pragma GCC unroll 4
	for (unsigned i = 0; i < nb; i++)
		if (b[i].p && b[i].n && !rwc_heap_quick((uintptr_t)b[i].p, b[i].n, 0))
			return 0;
	return 1;
}

/* The stack check's cache holds each buffer of B, all at or above SP
 * (the call's at PC). */
static inline __attribute__((always_inline)) int rd_stack(const struct rd_buf *b, unsigned nb, uintptr_t sp,
							  uintptr_t pc)
{
#pragma GCC unroll 4
	for (unsigned i = 0; i < nb; i++) {
		uintptr_t a = (uintptr_t)b[i].p;

		if (a && b[i].n && (a < sp || b[i].n > UINTPTR_MAX - a || !rwc_stack_in_frame(a, a + b[i].n, sp, pc)))
			return 0;
	}
	return 1;
}

/* The return address of the call whose caller's sp (the entry point's
 * canonical frame address) is SP: the word below it, where the call put
 * it (a tail call from the entry point leaves it there). */
#define RD_PC(sp) (((void *const *)(sp))[-1])

/* Whether the call with buffers B, made with the caller's sp SP, is the
 * one remembered for KIND and known good without a call (struct
 * rd_memo): RD_MISS, RD_GOOD, or good if rd_heap (RD_ASK_HEAP) or rd_stack
 * (RD_ASK_STACK) says so. */
enum { RD_MISS, RD_GOOD, RD_ASK_HEAP, RD_ASK_STACK };
static inline __attribute__((always_inline)) int rd_hit(const struct rd_memo *m, unsigned entry,
							const struct rd_buf *b, unsigned nb, uintptr_t sp)
{
	const struct rd_call *c = &m->c;
	unsigned seq = m->seq, on = rwc_bounds_on();
	int ok;

	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if ((seq & 1) || c->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE) || c->key != RD_KEY(entry, on))
		return 0;
#pragma GCC unroll 4
	for (unsigned i = 0; i < nb; i++)
		if (c->p[i] != b[i].p || c->n[i] != b[i].n)
			return 0;
	if (c->mode == RD_BELOW)
		ok = c->below < sp && rwc_hm_span_clear(&c->heap);
	else if (c->mode == RD_HEAP)
		ok = c->below < sp ? RD_ASK_HEAP : RD_MISS;
	else if (c->mode == RD_STACK)
		ok = c->sp == sp && c->pc == (uintptr_t)RD_PC(sp) ? RD_GOOD : RD_ASK_STACK;
	else
		ok = c->mode == RD_NONE ? RD_GOOD : RD_ASK_STACK;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return m->seq == seq ? ok : RD_MISS;
}

/* rd_hit and, when it asks, the heap or stack check's cache: 1 good. */
static inline __attribute__((always_inline)) int rd_known(const struct rd_memo *m, unsigned entry,
							  const struct rd_buf *b, unsigned nb, uintptr_t sp)
{
	int h = rd_hit(m, entry, b, nb, sp);

	return h == RD_GOOD || (h == RD_ASK_HEAP && rd_heap(b, nb)) ||
	       (h == RD_ASK_STACK && rd_stack(b, nb, sp, (uintptr_t)RD_PC(sp)));
}

/* [a, hi) lies in a frame or variable the stack check cached for the call
 * at PC with sp SP, one that needs no chain of frames confirmed. */
static int rd_frame0(uintptr_t a, uintptr_t hi, uintptr_t sp, uintptr_t pc)
{
	for (int i = 0; i < RWC_NFENT; i++) {
		const struct rwc_fent *e = &rwc_fcache[i];
		uintptr_t epc = e->pc;
		int in;

		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		in = epc == pc && e->sp == sp && a >= e->lo && hi <= e->limit && e->nchain == 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (in && e->pc == epc) /* not refilled by a signal handler meanwhile */
			return 1;
	}
	return 0;
}

/* The global check's cache knows each buffer of B good (where only a
 * buffer's start counts, only its start is looked at: the same buffers
 * again are good again). */
static int rd_glob(const struct rd_buf *b, unsigned nb)
{
	for (unsigned i = 0; i < nb; i++)
		if (b[i].p && b[i].n && !rwc_glob_fast((uintptr_t)b[i].p, b[i].n))
			return 0;
	return 1;
}

/* Why the good call with buffers B (sp SP, return address PC) was good,
 * as far as the next call can reuse it (struct rd_memo); -1: not so. */
static int rd_mode(const struct rd_buf *b, unsigned nb, unsigned on, uintptr_t sp, uintptr_t pc, uintptr_t lo,
		   uintptr_t hi)
{
	if (lo >= hi)
		return RD_NONE;
	if (!(on & RWC_CHECK_STACK) || hi - 1 < sp) {
		if (!(on & RWC_CHECK_HEAP) || rwc_hm_nothing_below_span(lo, rwc_hm_reach(hi - 1)))
			return !(on & RWC_CHECK_GLOBAL) || rd_glob(b, nb) ? RD_BELOW : -1;
		return rd_heap(b, nb) ? RD_HEAP : -1;
	}
	for (unsigned i = 0; i < nb; i++) {
		uintptr_t a = (uintptr_t)b[i].p;

		if (a && b[i].n && (a < sp || !rd_frame0(a, a + b[i].n, sp, pc)))
			return rd_stack(b, nb, sp, pc) ? RD_FRAMES : -1;
	}
	return RD_STACK;
}

/* Writes entry D from C (D's SEQ odd meanwhile); when SRC, C is that
 * entry's, which a signal handler may rewrite meanwhile: then D ends
 * empty.  Nothing when D is being written (this is a handler's call). */
static void rd_put(struct rd_memo *d, const struct rd_call *c, const struct rd_memo *src)
{
	unsigned seq = d->seq, sseq = src ? src->seq : 0;

	if (seq & 1)
		return;
	d->seq = seq + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	d->c = *c;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (src && ((sseq & 1) || src->seq != sseq))
		d->c.gen = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	d->seq = seq + 2;
}

/* The call of entry point ENTRY with buffers B is one of the last two
 * that missed; else it becomes one. */
static int rd_missed_before(struct rd_missed *ms, unsigned entry, const struct rd_buf *b)
{
	for (int i = 0; i < 2; i++)
		if (ms->entry[i] == entry && ms->p[i] == b[0].p && ms->n[i] == b[0].n)
			return 1;
	ms->entry[ms->next] = entry, ms->p[ms->next] = b[0].p, ms->n[ms->next] = b[0].n;
	ms->next ^= 1;
	return 0;
}

/* Remembers the good call of entry point ENTRY with buffers B, checked
 * under generation G, when it missed lately too: the entry's memory
 * moves to the second place (signal-safe: see struct rd_memo). */
static void rd_remember(int kind, unsigned entry, const struct rd_buf *b, unsigned nb, uint64_t g, void *sp,
			void *pc)
{
	struct rd_missed *ms = &rd_missed[kind];
	unsigned on = rwc_bounds_on();
	struct rd_call c = {.key = RD_KEY(entry, on), .gen = g, .sp = (uintptr_t)sp, .pc = (uintptr_t)pc};
	uintptr_t lo = UINTPTR_MAX, hi = 0; /* the span of the buffers (none: lo >= hi) */
	int mode;

	if (!rd_missed_before(ms, entry, b))
		return; /* the first miss of this call: it may be taking turns */
	for (unsigned i = 0; i < nb; i++)
		if (b[i].p && b[i].n) {
			lo = (uintptr_t)b[i].p < lo ? (uintptr_t)b[i].p : lo;
			hi = (uintptr_t)b[i].p + b[i].n > hi ? (uintptr_t)b[i].p + b[i].n : hi;
		}
	mode = rd_mode(b, nb, on, (uintptr_t)sp, (uintptr_t)pc, lo, hi);
	if (mode < 0 || (mode == RD_BELOW && (on & RWC_CHECK_HEAP) && !rwc_hm_span_prep(lo, hi - 1, &c.heap)))
		return; /* two leaves: never clear */
	c.mode = (unsigned)mode;
	c.below = on & RWC_CHECK_STACK ? hi - 1 : 0;
	for (unsigned i = 0; i < nb; i++)
		c.p[i] = b[i].p, c.n[i] = b[i].n;
	rd_put(&rd_memo[kind][1], &rd_memo[kind][0].c, &rd_memo[kind][0]);
	rd_put(&rd_memo[kind][0], &c, NULL);
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
 * names; BUFS the initializers of its struct rd_buf array) in parts.  The
 * entry jumps to the real function when rd_hit knows the call good; to
 * N_heap or N_stack when the heap or stack check's cache is left to ask
 * (their loops need registers the entry would have to save); else to
 * N_more: the fast path (a good call is remembered), else the checks of
 * the argument list (the rest: FDV the descriptor, NOFD 1 when there is
 * none), then the real call.  The caller's SP goes along (one argument
 * more, so that most stay in registers: tail calls, the entry needs no
 * frame of its own). */
#define RD_ENTRY(n, kind, PARAMS, ARGS, BUFS, fdv, nofd, ...)                                      \
	static __attribute__((noinline)) int n##_more RD_SPLICE(PARAMS, void *sp)                  \
	{                                                                                          \
		uint64_t g_ = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);                         \
		const struct rd_buf b_[] = {RD_UNPAREN BUFS};                                      \
		const unsigned nb_ = sizeof b_ / sizeof b_[0];                                     \
		_Static_assert(sizeof b_ / sizeof b_[0] <= RD_MAXB, "RD_MAXB");                    \
		if (rd_known(&rd_memo[kind][1], RWC_IDX_##n, b_, nb_, (uintptr_t)sp)) {            \
			/* the call remembered before the last */                                  \
		} else if (RWC_LIKELY(rd_good(b_, nb_, sp, RD_PC(sp)))) {                          \
			rd_remember(kind, RWC_IDX_##n, b_, nb_, g_, sp, RD_PC(sp));                \
		} else {                                                                           \
			const struct rwc_arg a_[] = {__VA_ARGS__};                                 \
			RWC_ARGS_SLOW_AT_(a_, n, -1, fdv, nofd, sp, RD_PC(sp));                    \
		}                                                                                  \
		return REAL(n) ARGS;                                                               \
	}                                                                                          \
	RD_ASK(n, heap, PARAMS, ARGS, BUFS, rd_heap(b_, nb_))                                      \
	RD_ASK(n, stack, PARAMS, ARGS, BUFS, rd_stack(b_, nb_, (uintptr_t)sp, (uintptr_t)RD_PC(sp))) \
	RWC_ENTRY __attribute__((flatten)) int n PARAMS                                            \
	{                                                                                          \
		const struct rd_buf b_[] = {RD_UNPAREN BUFS};                                      \
		int h_ = rd_hit(&rd_memo[kind][0], RWC_IDX_##n, b_, sizeof b_ / sizeof b_[0],      \
				(uintptr_t)RWC_CALLER_SP());                                       \
		void *real_;                                                                       \
		if (RWC_LIKELY(h_ == RD_GOOD) &&                                                   \
		    RWC_LIKELY(real_ = __atomic_load_n(&rwc_real_ptr[RWC_IDX_##n], __ATOMIC_ACQUIRE))) \
			return ((__typeof__(&n))real_) ARGS;                                       \
		if (h_ == RD_ASK_HEAP)                                                             \
			return n##_heap RD_SPLICE(ARGS, RWC_CALLER_SP());                          \
		if (h_ == RD_ASK_STACK)                                                            \
			return n##_stack RD_SPLICE(ARGS, RWC_CALLER_SP());                         \
		return n##_more RD_SPLICE(ARGS, RWC_CALLER_SP());                                  \
	}
/* N_WHAT: the real call when ASK (over b_, nb_, sp) says the buffers are
 * good, else N_more. */
#define RD_ASK(n, what, PARAMS, ARGS, BUFS, ask)                                                   \
	static __attribute__((noinline, flatten)) int n##_##what RD_SPLICE(PARAMS, void *sp)       \
	{                                                                                          \
		const struct rd_buf b_[] = {RD_UNPAREN BUFS};                                      \
		const unsigned nb_ = sizeof b_ / sizeof b_[0];                                     \
		void *real_;                                                                       \
		if (RWC_LIKELY(ask) &&                                                             \
		    RWC_LIKELY(real_ = __atomic_load_n(&rwc_real_ptr[RWC_IDX_##n], __ATOMIC_ACQUIRE))) \
			return ((__typeof__(&n))real_) ARGS;                                       \
		return n##_more RD_SPLICE(ARGS, sp);                                               \
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
/* Fortified: past the FDSLEN bytes the compiler saw (glibc aborts) never good. */
#define FDS_BYTES (nfds > SIZE_MAX / sizeof *fds ? SIZE_MAX : nfds * sizeof *fds)
#define FDS_CHK RWC_MEM_OBJ("fds", fds, FDS_BYTES, RWC_RW, fdslen), RWC_INT("nfds", nfds)
#define FDS_BUF_CHK {fds, FDS_BYTES > fdslen ? SIZE_MAX : FDS_BYTES, RWC_RW}
RD_ENTRY(__poll_chk, RD_POLL, (struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen),
	 (fds, nfds, timeout, fdslen), (FDS_BUF_CHK), -1, 1, FDS_CHK)
RD_ENTRY(ppoll, RD_POLL,
	 (struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask),
	 (fds, nfds, tmo_p, sigmask), (FDS_BUF, {tmo_p, sizeof *tmo_p, RWC_R}), -1, 1,
	 FDS, RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R))
RD_ENTRY(__ppoll_chk, RD_POLL,
	 (struct pollfd *fds, nfds_t nfds, const struct timespec *tmo_p, const sigset_t *sigmask,
	  size_t fdslen),
	 (fds, nfds, tmo_p, sigmask, fdslen), (FDS_BUF_CHK, {tmo_p, sizeof *tmo_p, RWC_R}), -1, 1,
	 FDS_CHK, RWC_MEM("tmo_p", tmo_p, sizeof *tmo_p, RWC_R))

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
