/* stackobj.h: the stack check of one buffer: the frame of this thread's
 * stack that holds it, found by walking from the caller (sp SP0, return
 * address PC), narrowed to the variable that holds it where DWARF names
 * one; a good verdict is cached for the call site (the frame cache
 * below, which the fast paths read).  Async-signal-safe (libdw only under
 * the load lock, which a handler does not take). */
#ifndef RWC_STACKOBJ_H
#define RWC_STACKOBJ_H

#include <stddef.h>
#include <stdint.h>

#include "base/checks.h"
#include "frames/stackwalk.h"

/* The stack check's per-thread memory: the sp of this stack's outermost
 * frame (a full walk found it; 0 unknown), and the frames recently found
 * to hold a buffer wholly, keyed by the call site and its sp and checked
 * against the return addresses saved in the frames between. */
struct rwc_fent {
	uintptr_t pc, sp;    /* the call: return address, caller's sp; pc 0: empty */
	uintptr_t lo, limit; /* the holding frame, up to its first saved slot */
	int nchain;
	uintptr_t slot[RWC_STACK_CHAIN], val[RWC_STACK_CHAIN];
};

#define RWC_NFENT 4
extern __thread struct rwc_fent rwc_fcache[RWC_NFENT] __attribute__((tls_model("initial-exec")));
extern __thread uintptr_t rwc_stk_top __attribute__((tls_model("initial-exec")));

/* The stack check's warm look: [p, hi) above SP0 is above every frame of
 * this stack, or a frame cached for this call site and sp holds it. */
/* 1 when [p, hi) lies in a frame (or variable) this thread walked lately
 * for the call at PC with sp SP0: proven a stack buffer, and a good one. */
static inline int rwc_stack_in_frame(uintptr_t p, uintptr_t hi, uintptr_t sp0, uintptr_t pc)
{
	for (int i = 0; i < RWC_NFENT; i++) {
		const struct rwc_fent *e = &rwc_fcache[i];
		int c;

		if (e->pc != pc || e->sp != sp0 || p < e->lo || hi > e->limit)
			continue;
		for (c = 0; c < e->nchain && *(const uintptr_t *)e->slot[c] == e->val[c]; c++)
			;
		if (c == e->nchain)
			return 1;
	}
	return 0;
}

/* 1 when P lies above the outermost frame of this thread's stack (whose
 * sp is SP0): not a buffer of this stack. */
static inline int rwc_stack_above(uintptr_t p, uintptr_t sp0)
{
	uintptr_t top = rwc_stk_top;

	return top && sp0 < top && p >= top;
}

static inline int rwc_stack_cached(uintptr_t p, uintptr_t hi, uintptr_t sp0, uintptr_t pc)
{
	uintptr_t top = rwc_stk_top;

	if (!top || sp0 >= top)
		return 0; /* this stack's top not known yet (or another stack) */
	if (p >= top)
		return 1; /* above this thread's frames: not its stack's */
	return rwc_stack_in_frame(p, hi, sp0, pc);
}

/* Verdict on [P, P+N): RWC_OK (B the holder, or none: no frame holds it,
 * or no verdict), or RWC_STACK_OVERFLOW with the bad bytes [*BLO, *BHI). */
enum rwc_problem rwc_bounds_stack(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc, struct rwc_bounds *b,
				  uintptr_t *blo, uintptr_t *bhi);

#endif
