/* bounds.h: the checks beyond the memory map (RWCHECK_CHECKS heap and
 * stack): the malloc block or the stack frame that holds a buffer must
 * hold all of it.  The fast path (rwc_bounds_fast) is lock-free and
 * signal-safe: a few loads for a buffer that is neither, a bitmap search
 * and a header read for a heap buffer, a per-thread cache of frames for a
 * stack buffer.  The full check may walk the stack (stackwalk.h: no
 * lock, no allocation, nothing loaded). */
#ifndef RWC_BOUNDS_H
#define RWC_BOUNDS_H

#include "base/checks.h"
#include "base/knobs.h"
#include "bounds/bigfree.h"
#include "bounds/heapmap.h"
#include "bounds/stackobj.h"

/* The bounds checks in force (RWC_CHECK_HEAP | RWC_CHECK_STACK bits). */
static inline unsigned rwc_bounds_on(void)
{
	return __atomic_load_n(&rwc_checks, __ATOMIC_RELAXED) & (RWC_CHECK_HEAP | RWC_CHECK_STACK | RWC_CHECK_GLOBAL);
}

/* The block starts this thread found holding its buffers lately (bounds.c):
 * a hint only, every fact is read again (the start still live, the
 * block's size), so no free or realloc has to clear it. */
#define RWC_HBLOCKS 4
extern __thread uintptr_t rwc_hblock[RWC_HBLOCKS] __attribute__((tls_model("initial-exec")));

/* 1 when [p, p+n) is known good for the checks in force; 0: ask
 * rwc_bounds_check.  SP0 is the caller's stack pointer at the call (its
 * frame starts there), PC the return address into it.  The inline front
 * of it is rwc_bounds_fast (fastbounds.h). */
int rwc_bounds_good(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc);

/* 1 when [p, p+n) lies in the main heap below the program break, at or
 * above a live block malloc handed out there (the heap map's record: no
 * header read) and above the executable's image (no other mapping lies
 * between the two: an mmapped block, a thread arena, glibc's fallback
 * when the break cannot grow are elsewhere), and the program changed
 * nothing there itself (mapnews.h rwc_note_cut): mapped readable and
 * writable without asking the kernel; the thread's cache (tcache.h) then
 * holds the heap from that block to the break.  With the heap check on
 * only (glibc's malloc is the next one then), within the first checks'
 * budget (mapview.h rwc_map_light_left). */
int rwc_bounds_vouch(uintptr_t p, size_t n);

/* 1 when P may lie in a freed large block kept reserved (bigfree.h):
 * its pages unreadable, yet the heap check's use-after-free is the
 * finding, even where the map's bad bytes start as early. */
static inline int rwc_bounds_freed_big(uintptr_t p)
{
	return (rwc_bounds_on() & RWC_CHECK_HEAP) && rwc_big_maybe(p);
}

/* The full check: RWC_OK, or the problem with what holds the buffer in B
 * and the bad bytes [*bad_lo, *bad_hi). */
enum rwc_problem rwc_bounds_check(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc,
				  struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi);

/* A fortified call's count N runs past the OBJSIZE bytes the compiler saw
 * at P, and the full check found nothing wrong: the problem from where P
 * lies (a live heap block: heap-overflow with the block; a module's
 * image: global-overflow; the caller's stack, at or above SP0:
 * stack-overflow; else heap-overflow), the object in B ([P, P+OBJSIZE)
 * when nothing better is known), the bad bytes past OBJSIZE. */
enum rwc_problem rwc_bounds_compiler(uintptr_t p, size_t n, size_t objsize, uintptr_t sp0,
				     struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi);

#endif
