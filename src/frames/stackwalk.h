/* stackwalk.h: the stack check's walk up the caller's frames, without
 * libunwind: each frame's CFA and save slots from its module's .eh_frame
 * (glibc's lock-free _dl_find_object finds the module, cfi.h reads it).
 * No lock, no allocation, no system call, nothing loaded:
 * async-signal-safe, usable in a vfork child. */
#ifndef RWC_STACKWALK_H
#define RWC_STACKWALK_H

#include <stdint.h>

#include "base/checks.h"

#define RWC_STACK_CHAIN 4

/* What the walk up the stack found about an address. */
struct rwc_stack_walk {
	struct rwc_bounds b; /* the frame holding it (kind RWC_HOLDER_FRAME) */
	uintptr_t top;       /* the outermost frame's sp, when the walk got there; or 0 */
	int nchain;          /* return-address slots of the frames below b, or -1 */
	uintptr_t slot[RWC_STACK_CHAIN], val[RWC_STACK_CHAIN];
};

/* Walks the frames from the one whose sp is SP0 (the caller of the
 * interposed function; PC its return address into it) up to the frame
 * holding A: 1 found (W->b: lo its sp, hi its CFA, limit its first save
 * slot at or above A, pc, index), 0 in no frame, -1 unknown (a frame
 * without unwind information, a signal frame, a rule not interpreted,
 * a slot the map view does not vouch for).  With TO_TOP the walk goes on
 * to the outermost frame, whose sp it leaves in W->top (0 if it did not
 * get there). */
int rwc_frames_walk(uintptr_t a, uintptr_t sp0, uintptr_t pc, int to_top, struct rwc_stack_walk *w);

/* The frame address of the function running this thread's check
 * (rwc_call's caller_fp), set by the entry for the check's length, 0
 * else: where it is the frame the caller called (fp + 16 = SP0, its
 * return address PC), the walk starts at the caller's frame with the
 * frame pointer that frame saved, instead of unwinding the library's own
 * frames by their CFI. */
extern __thread uintptr_t rwc_walk_entry_fp __attribute__((tls_model("initial-exec")));

/* The return addresses of the frames from the one returning to PC (a
 * caller of the library's function that called this) outwards, at most
 * MAX of them into PCS: how many (0: PC not found), or -1 where the walk
 * is not supported.  *CUT 1 when the walk stopped short of MAX and of the
 * outermost frame: a frame without unwind information, or a stack slot
 * or table the view did not vouch for.  Reads only stack slots the
 * thread's cache or the snapshot vouch for: usable inside malloc. */
int rwc_frames_trace(uintptr_t pc, uintptr_t *pcs, int max, int *cut);

/* The return addresses of the frames from the caller's (its sp SP0, its
 * return address PC; FP the entry's frame address, as rwc_walk_entry_fp)
 * outwards, at most MAX into PCS (PC first): how many, or -1 where the walk
 * is not supported or the caller's frame was not found.  Stops at a frame
 * without unwind information or a slot the kernel's map does not have
 * readable (the snapshot's no asked again: the same answer at every call
 * from one site); usable wherever a check runs. */
int rwc_frames_callers(uintptr_t fp, uintptr_t sp0, uintptr_t pc, uintptr_t *pcs, int max);

#endif
