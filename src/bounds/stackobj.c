/* stackobj.c: the stack check (see stackobj.h): the frame that holds a
 * buffer (stackwalk.h), the variable in it where the frame's module has
 * DWARF (dwprobe.h, dwvars.h: libdw on the library's own stack, under the
 * load lock), and the thread's cache of frames found to hold one. */
#include "config.h"

#include "bounds/stackobj.h"
#include "mapview/vouch.h"

#include "base/context.h"
#include "frames/dwprobe.h"
#include "frames/dwvars.h"
#include "frames/ownstack.h"
#include "frames/stackwalk.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

/* ---- stack: this thread's stack (the run of mappings around its sp), the
 * sp of its outermost frame, and the frames recently found to hold a
 * buffer wholly, keyed by the call site and its sp and checked against the
 * return addresses saved in the frames between. */

TLS struct rwc_fent rwc_fcache[RWC_NFENT];
TLS uintptr_t rwc_stk_top;
static TLS unsigned fnext;
static TLS int filling; /* remember() is writing an entry */

/* Caches B, held in W's frame, for the call at PC with sp SP0.  A signal handler that
 * interrupts a fill leaves the cache alone (filling), so no entry mixes
 * two fills; one that looks sees the entry invalid (pc 0). */
static void remember(uintptr_t pc, uintptr_t sp0, const struct rwc_bounds *b, const struct rwc_stack_walk *w)
{
	struct rwc_fent *e;

	if (filling)
		return;
	filling = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e = &rwc_fcache[fnext++ % RWC_NFENT];
	e->pc = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->sp = sp0;
	e->lo = b->lo;
	e->limit = b->limit;
	e->nchain = w->nchain;
	for (int i = 0; i < w->nchain; i++)
		e->slot[i] = w->slot[i], e->val[i] = w->val[i];
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->pc = pc;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	filling = 0;
}

/* When DWARF names the variable that holds P (dwvars.h), B becomes it and
 * the walk's bounds (cached by remember()) the variable's.  A parameter
 * passed in memory lies above the cfa of its own frame (index - 1): in
 * the holder's outgoing arguments, so that frame is asked next; its pc
 * is the return address saved below the holder (the walk's chain). */
/* The pc of the frame below W's holder (the one whose outgoing arguments
 * lie above the holder's CFA), PC being frame #0's: 1, or 0 when there
 * is none or the walk did not keep its return address. */
static int frame_below(uintptr_t pc, const struct rwc_stack_walk *w, uintptr_t *below)
{
	int i = w->b.index;

	if (i == 0 || (i > 1 && w->nchain < i - 1))
		return 0;
	*below = i == 1 ? pc : w->val[i - 2];
	return 1;
}

/* The sp of frame K below W's holder (K < its index; frame_below found
 * the chain long enough): frame #0's is SP0, the call's; a frame above it
 * starts where the return address into it was pushed (x86-64: right
 * above that slot); 0 not known. */
static uintptr_t frame_sp(const struct rwc_stack_walk *w, int k, uintptr_t sp0)
{
	if (k == 0)
		return sp0;
#if defined(__x86_64__)
	return w->slot[k - 1] + sizeof(uintptr_t);
#else
	(void)w;
	return 0;
#endif
}

static void variable(uintptr_t p, size_t n, uintptr_t pc, uintptr_t sp0, struct rwc_stack_walk *w,
		     struct rwc_bounds *b)
{
	struct rwc_dw_frame f = {w->b.pc, w->b.hi, w->b.lo, w->b.index};
	int i = w->b.index;

	if (!rwc_dwvars_find(&f, p, n, b)) {
		if (!frame_below(pc, w, &f.pc))
			return;
		f.cfa = w->b.lo;
		f.sp = frame_sp(w, i - 1, sp0); /* (a clang -O2 frame base is the sp) */
		f.index = i - 1;
		if (!rwc_dwvars_find(&f, p, n, b))
			return;
	}
	w->b.lo = b->lo;
	w->b.limit = b->hi;
}

/* 0 when no module variable() would read has DWARF (dwprobe.h: known
 * without the load lock, so a process without DWARF never maps the
 * library's memory for it); 1 when one has, or it is not known now. */
static int may_name_variable(uintptr_t pc, const struct rwc_stack_walk *w)
{
	uintptr_t below;

	return rwc_dwprobe_at(w->b.pc) != 0 || (frame_below(pc, w, &below) && rwc_dwprobe_at(below) != 0);
}

/* variable() on the library's own stack (libdw is deep): its arguments. */
struct var_args {
	uintptr_t p, pc, sp0;
	size_t n;
	struct rwc_stack_walk *w;
	struct rwc_bounds *b;
};
static void variable_on(void *arg)
{
	struct var_args *a = arg;
	variable(a->p, a->n, a->pc, a->sp0, a->w, a->b);
}

enum rwc_problem rwc_bounds_stack(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc, struct rwc_bounds *b,
				  uintptr_t *blo, uintptr_t *bhi)
{
	struct rwc_stack_walk w;
	enum rwc_problem pr;
	int r, full;

	b->kind = RWC_HOLDER_NONE;
	if (!sp0 || p < sp0)
		return RWC_OK;
	if (!rwc_stk_top)
		rwc_stk_top = rwc_main_stack_top(sp0); /* (no walk out through main's callers in libc) */
	full = !rwc_stk_top || sp0 >= rwc_stk_top; /* learn where this stack's frames end */
	if (!full && p >= rwc_stk_top)
		return RWC_OK;
	/* Frame #0 first: most buffers are the caller's own; the rest of the
	 * stack is walked only for a buffer above it, or to learn the top. */
	r = rwc_frames_walk(p, sp0, pc, full, &w);
	if (full && w.top > sp0)
		rwc_stk_top = w.top;
	if (r != 1)
		return RWC_OK; /* in no frame, or no verdict */
	*b = w.b;
	/* libdw: not in a signal handler or a vfork child, nor where its
	 * allocations would go to another allocator (context.h) */
	if (!__atomic_load_n(&rwc_foreign_malloc_first, __ATOMIC_ACQUIRE) && may_name_variable(pc, &w) &&
	    rwc_load_lock()) {
		struct var_args a = {p, pc, sp0, n, &w, b};

		rwc_on_own_stack(variable_on, &a);
		rwc_load_unlock();
	}
	/* B holds the buffer (RWC_HOLDER_FRAME: lo its sp, hi its CFA, limit
	 * its first save slot at or above the buffer, or its CFA; or
	 * RWC_HOLDER_VARIABLE, limit = hi); a good verdict caches [lo, limit) */
	pr = rwc_stack_verdict(p, n, b, blo, bhi);
	if (pr == RWC_OK && w.nchain >= 0)
		remember(pc, sp0, b, &w);
	return pr;
}
