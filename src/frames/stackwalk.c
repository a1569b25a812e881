/* stackwalk.c: the stack check's frame walk (see stackwalk.h): from this
 * function's own registers, frame by frame with each pc's CFI, out of the
 * library's frames to the caller's (sp SP0) and on up to the frame that
 * holds the buffer.  Reads only: the modules' .eh_frame, and stack slots
 * the map view vouches for.  Allocates nothing; async-signal-safe. */
#include "config.h"

#include "frames/stackwalk.h"

#include <dlfcn.h>

#include "frames/cfi.h"
#include "mapview/mapview.h"
#include "mapview/tcache.h"

/* The registers of one frame: value and known bit per DWARF number. */
struct regs {
	uintptr_t r[RWC_CFI_NREGS]; /* r[RWC_CFI_RSP]: sp; r[RWC_CFI_RA]: pc */
	unsigned known;
};

/* ---- x86-64: the registers of the caller of rwc_cfi_getregs at its
 * return address: the ones a call preserves, its sp, the return address
 * itself (struct regs' r[] by DWARF number, 8 bytes each). */
#if defined(__x86_64__)
#define HAVE_GETREGS 1
void rwc_cfi_getregs(struct regs *rs) __attribute__((visibility("hidden")));
__asm__(".text\n"
	".globl rwc_cfi_getregs\n"
	".hidden rwc_cfi_getregs\n"
	".type rwc_cfi_getregs, @function\n"
	"rwc_cfi_getregs:\n"
	".cfi_startproc\n"
	"movq %rbx, 24(%rdi)\n"
	"movq %rbp, 48(%rdi)\n"
	"movq %r12, 96(%rdi)\n"
	"movq %r13, 104(%rdi)\n"
	"movq %r14, 112(%rdi)\n"
	"movq %r15, 120(%rdi)\n"
	"leaq 8(%rsp), %rax\n"
	"movq %rax, 56(%rdi)\n"
	"movq (%rsp), %rax\n"
	"movq %rax, 128(%rdi)\n"
	"ret\n"
	".cfi_endproc\n"
	".size rwc_cfi_getregs, .-rwc_cfi_getregs\n");
#define GETREGS_KNOWN (RWC_CFI_CALLEE_SAVED | (1u << RWC_CFI_RSP) | (1u << RWC_CFI_RA))
#else
#define HAVE_GETREGS 0
#endif

/* Can N bytes at A be read?  The thread's cache, the snapshot, else the
 * map view brought up to date. */
static int readable(uintptr_t a, size_t n)
{
	struct rwc_verdict v;
	int says;

	if (a + n < a)
		return 0;
	if (rwc_fast_range((const void *)a, n, RWC_NEED_READ))
		return 1;
	says = rwc_snap_lookup(a, n, RWC_NEED_READ);
	if (says >= 0)
		return says;
	return rwc_map_verdict(a, n, RWC_NEED_READ, &v) == RWC_OK;
}

/* The row of the frame at PC: 1, or 0 (no module, no table, no FDE). */
static int row_at(uintptr_t pc, struct rwc_cfi_row *row)
{
	struct dl_find_object d;
	struct rwc_cfi_mem m;
	uintptr_t fde;

	if (_dl_find_object((void *)pc, &d) != 0 || !d.dlfo_eh_frame)
		return 0;
	m.lo = (uintptr_t)d.dlfo_map_start;
	m.hi = (uintptr_t)d.dlfo_map_end;
	m.ok = readable;
	fde = rwc_cfi_search(&m, (uintptr_t)d.dlfo_eh_frame, pc);
	return fde && rwc_cfi_row(&m, fde, pc, row) && !row->signal;
}

/* The frame's CFA from its row: 1, or 0 (an unknown register or rule). */
static int cfa_of(const struct regs *rs, const struct rwc_cfi_row *row, uintptr_t *cfa)
{
	if (row->cfa_reg < 0 || !(rs->known & (1u << row->cfa_reg)))
		return 0;
	*cfa = rs->r[row->cfa_reg] + (uintptr_t)row->cfa_off;
	return *cfa > rs->r[RWC_CFI_RSP];
}

/* The caller's registers: 1, 0 this is the outermost frame, -1 unknown. */
static int step(struct regs *rs, const struct rwc_cfi_row *row, uintptr_t cfa)
{
	struct regs up = {{0}, 0};

	if (row->rule[RWC_CFI_RA] == RWC_CFI_UNDEF)
		return 0;
	for (int i = 0; i < RWC_CFI_NREGS; i++) {
		uintptr_t slot = cfa + (uintptr_t)row->off[i];

		switch (row->rule[i]) {
		case RWC_CFI_SAME:
			if ((RWC_CFI_CALLEE_SAVED & (1u << i)) && (rs->known & (1u << i)))
				up.r[i] = rs->r[i], up.known |= 1u << i;
			break;
		case RWC_CFI_OFFSET:
			if (!readable(slot, sizeof(uintptr_t)))
				return -1;
			up.r[i] = *(const uintptr_t *)slot, up.known |= 1u << i;
			break;
		case RWC_CFI_VAL_OFFSET:
			up.r[i] = slot, up.known |= 1u << i;
			break;
		case RWC_CFI_REGISTER:
			if (rs->known & (1u << row->off[i]))
				up.r[i] = rs->r[row->off[i]], up.known |= 1u << i;
			break;
		default:
			break;
		}
	}
	if (!(up.known & (1u << RWC_CFI_RA)) || !up.r[RWC_CFI_RA])
		return -1;
	up.r[RWC_CFI_RSP] = cfa, up.known |= 1u << RWC_CFI_RSP;
	*rs = up;
	return 1;
}

/* The lowest save slot of ROW at or above A below LIMIT. */
static uintptr_t first_saved(const struct rwc_cfi_row *row, uintptr_t cfa, uintptr_t a, uintptr_t limit)
{
	for (int i = 0; i < RWC_CFI_NREGS; i++) {
		uintptr_t slot = cfa + (uintptr_t)row->off[i];

		if (row->rule[i] == RWC_CFI_OFFSET && slot >= a && slot < limit)
			limit = slot;
	}
	return limit;
}

/* Records the return-address slot of a frame below the holder. */
static void chain(struct rwc_stack_walk *w, const struct rwc_cfi_row *row, uintptr_t cfa)
{
	uintptr_t slot = cfa + (uintptr_t)row->off[RWC_CFI_RA];

	if (w->nchain < 0)
		return;
	if (w->nchain == RWC_STACK_CHAIN || row->rule[RWC_CFI_RA] != RWC_CFI_OFFSET) {
		w->nchain = -1; /* not cacheable */
		return;
	}
	w->slot[w->nchain] = slot;
	w->val[w->nchain++] = *(const uintptr_t *)slot; /* read by step() already */
}

/* From the library's frame in RS out to the frame whose sp is SP0: 1 there
 * (its pc PC), 0 not found. */
static int to_caller(struct regs *rs, uintptr_t sp0, uintptr_t pc)
{
	struct rwc_cfi_row row;
	uintptr_t cfa;

	for (int steps = 0; steps < 32; steps++) {
		if (rs->r[RWC_CFI_RSP] == sp0)
			return rs->r[RWC_CFI_RA] == pc;
		if (rs->r[RWC_CFI_RSP] > sp0 || !row_at(rs->r[RWC_CFI_RA] - 1, &row) || !cfa_of(rs, &row, &cfa) ||
		    step(rs, &row, cfa) != 1)
			return 0;
	}
	return 0;
}

int rwc_frames_walk(uintptr_t a, uintptr_t sp0, uintptr_t pc, int to_top, struct rwc_stack_walk *w)
{
	struct regs rs = {{0}, 0};
	int found = 0;

	w->nchain = 0;
	w->top = 0;
	w->b.kind = RWC_HOLDER_NONE;
#if HAVE_GETREGS
	rwc_cfi_getregs(&rs);
	rs.known = GETREGS_KNOWN;
#endif
	if (!HAVE_GETREGS || !to_caller(&rs, sp0, pc))
		return -1;
	for (int i = 0; i < 256; i++) {
		uintptr_t lo = rs.r[RWC_CFI_RSP], hi;
		struct rwc_cfi_row row;
		int r;

		/* A return address: its call is the byte before it. */
		if (!row_at(rs.r[RWC_CFI_RA] - 1, &row) || !cfa_of(&rs, &row, &hi))
			break;
		if (!found && a < lo) {
			if (!to_top)
				break;
			found = -1; /* in no frame */
		} else if (!found && a < hi) {
			w->b.kind = RWC_HOLDER_FRAME;
			w->b.lo = lo;
			w->b.hi = w->b.limit = hi;
			w->b.limit = first_saved(&row, hi, a, hi);
			w->b.pc = rs.r[RWC_CFI_RA];
			w->b.index = i;
			found = 1;
			if (!to_top)
				break;
		}
		r = step(&rs, &row, hi);
		if (r == 0)
			w->top = lo; /* the outermost frame: no buffer of the program here */
		if (r != 1)
			break;
		if (!found)
			chain(w, &row, hi);
	}
	return found == 1 ? 1 : found == -1 || w->top ? 0 : -1;
}
