/* stackwalk.c: the stack check's frame walk (see stackwalk.h): from the
 * caller's frame -- its registers from the entry point's frame where that
 * is the frame the caller called, else from this function's own, frame by
 * frame with each pc's CFI out of the library's frames -- up to the frame
 * that holds the buffer.  Reads only: the modules' .eh_frame, and stack
 * slots the map view vouches for.  Allocates nothing; async-signal-safe. */
#include "config.h"

#include "frames/stackwalk.h"

#include <dlfcn.h>

#include "frames/cfi.h"
#include "frames/rowcache.h"
#include "mapview/mapview.h"
#include "mapview/probe.h"
#include "mapview/tcache.h"

/* The registers of one frame: value and known bit per DWARF number. */
struct regs {
	uintptr_t r[RWC_CFI_NREGS]; /* r[RWC_CFI_RSP]: sp; r[RWC_CFI_RA]: pc */
	unsigned known;
	uintptr_t ok_lo, ok_hi; /* stack known readable (the run the view vouched for) */
	uint64_t ok_gen;        /* ... in this generation of the view */
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

/* The same without bringing the map view up to date (which may read
 * /proc): for the allocation traces, taken inside malloc. */
/* readable, where the snapshot's no is asked again of the kernel (a
 * thread's stack mapped since it was taken): the call-site walk of the
 * dedup table, whose answer must not change from call to call. */
static int readable_sure(uintptr_t a, size_t n)
{
	struct rwc_verdict v;
	char copy[64];

	if (a + n < a)
		return 0;
	if (rwc_fast_range((const void *)a, n, RWC_NEED_READ))
		return 1;
	if (rwc_map_verdict(a, n, RWC_NEED_READ, &v) != RWC_OK)
		return 0;
	/* a yes for want of a map (descriptors used up, no /proc): the
	 * kernel's own answer, or no (process_vm_readv refused) */
	return !v.blind || (n <= sizeof copy && rwc_probe_read(copy, a, n) == 1);
}

static int readable_known(uintptr_t a, size_t n)
{
	return rwc_quick_range((const void *)a, n, RWC_NEED_READ);
}

/* The row of the frame at PC: 1, or 0 (no module, no table, no FDE). */
static int row_at(uintptr_t pc, struct rwc_cfi_row *row, int (*ok)(uintptr_t, size_t))
{
	struct dl_find_object d;
	struct rwc_cfi_mem m;
	uintptr_t fde;

	if (_dl_find_object((void *)pc, &d) != 0 || !d.dlfo_eh_frame)
		return 0;
	m.lo = (uintptr_t)d.dlfo_map_start;
	m.hi = (uintptr_t)d.dlfo_map_end;
	m.ok = ok;
	fde = rwc_cfi_search(&m, (uintptr_t)d.dlfo_eh_frame, pc);
	return fde && rwc_cfi_row(&m, fde, pc, row) && !row->signal;
}

/* row_at for the allocation traces: from the table of recent rows first. */
static int row_cached(uintptr_t pc, struct rwc_cfi_row *row)
{
	if (rwc_rowcache_get(pc, row))
		return 1;
	if (!row_at(pc, row, readable_known))
		return 0;
	rwc_rowcache_put(pc, row);
	return 1;
}

/* The frame's CFA from its row: 1, or 0 (an unknown register or rule). */
static int cfa_of(const struct regs *rs, const struct rwc_cfi_row *row, uintptr_t *cfa)
{
	if (row->cfa_reg < 0 || !(rs->known & (1u << row->cfa_reg)))
		return 0;
	*cfa = rs->r[row->cfa_reg] + (uintptr_t)row->cfa_off;
	return *cfa > rs->r[RWC_CFI_RSP];
}

/* The registers a walk follows (rowcache.h): others are not known above
 * the first frame, a CFA defined by one of them ends the walk. */
static const unsigned char followed[RWC_ROW_FOLLOWED] = RWC_ROW_FOLLOWED_REGS;

/* The caller's registers: 1, 0 this is the outermost frame, -1 unknown. */
static int step(struct regs *rs, const struct rwc_cfi_row *row, uintptr_t cfa, int (*ok)(uintptr_t, size_t))
{
	uintptr_t r[RWC_CFI_NREGS];
	unsigned known = 0;

	if (row->rule[RWC_CFI_RA] == RWC_CFI_UNDEF)
		return 0;
	for (unsigned k = 0; k < sizeof followed; k++) {
		int i = followed[k];
		uintptr_t slot = cfa + (uintptr_t)row->off[i];

		switch (row->rule[i]) {
		case RWC_CFI_SAME: /* (not the return address: its own pc) */
			if (i != RWC_CFI_RA && (rs->known & (1u << i)))
				r[i] = rs->r[i], known |= 1u << i;
			break;
		case RWC_CFI_OFFSET:
			if (slot < rs->ok_lo || slot > rs->ok_hi - sizeof(uintptr_t) || rs->ok_hi < sizeof(uintptr_t) ||
			    rs->ok_gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE)) {
				if (!ok(slot, sizeof(uintptr_t)))
					return -1;
				rs->ok_gen = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
				if (!rwc_fast_run((const void *)slot, sizeof(uintptr_t), RWC_NEED_READ, &rs->ok_lo, &rs->ok_hi))
					rs->ok_lo = rs->ok_hi = 0;
			}
			r[i] = *(const uintptr_t *)slot, known |= 1u << i;
			break;
		case RWC_CFI_VAL_OFFSET:
			r[i] = slot, known |= 1u << i;
			break;
		case RWC_CFI_REGISTER:
			if (row->off[i] >= 0 && row->off[i] < RWC_CFI_NREGS && (rs->known & (1u << row->off[i])))
				r[i] = rs->r[row->off[i]], known |= 1u << i;
			break;
		default:
			break;
		}
	}
	if (!(known & (1u << RWC_CFI_RA)) || !r[RWC_CFI_RA])
		return -1;
	for (unsigned k = 0; k < sizeof followed; k++)
		rs->r[followed[k]] = known & (1u << followed[k]) ? r[followed[k]] : 0;
	rs->r[RWC_CFI_RSP] = cfa;
	rs->known = known | (1u << RWC_CFI_RSP);
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
		if (rs->r[RWC_CFI_RSP] > sp0 || !row_at(rs->r[RWC_CFI_RA] - 1, &row, readable) || !cfa_of(rs, &row, &cfa) ||
		    step(rs, &row, cfa, readable) != 1)
			return 0;
	}
	return 0;
}

__thread uintptr_t rwc_walk_entry_fp __attribute__((tls_model("initial-exec")));

/* The caller's registers from the entry's frame (rwc_walk_entry_fp): its
 * sp, its pc, its frame pointer; 1, or 0 when that frame is not the one
 * the caller called.  Reads two slots just below SP0, in the library's
 * own frames (mapped: this thread runs on them). */
static int from_entry(struct regs *rs, uintptr_t fp, uintptr_t sp0, uintptr_t pc)
{
	if (!HAVE_GETREGS || !fp || fp != sp0 - 16 || ((const uintptr_t *)fp)[1] != pc)
		return 0; /* (x86-64's frame: saved fp, return address, then the caller's sp) */
	rs->r[RWC_CFI_RSP] = sp0;
	rs->r[RWC_CFI_RA] = pc;
	rs->r[RWC_CFI_RBP] = ((const uintptr_t *)fp)[0];
	rs->known = (1u << RWC_CFI_RSP) | (1u << RWC_CFI_RA) | (1u << RWC_CFI_RBP);
	return 1;
}

/* From the caller's frame in RS up (rwc_frames_walk's loop). */
static inline __attribute__((always_inline)) int walk_up(struct regs *rs, uintptr_t a, int to_top, struct rwc_stack_walk *w)
{
	int found = 0;

	w->nchain = 0;
	w->top = 0;
	w->b.kind = RWC_HOLDER_NONE;
	for (int i = 0; i < 256; i++) {
		uintptr_t lo = rs->r[RWC_CFI_RSP], hi;
		struct rwc_cfi_row row;
		int r;

		/* A return address: its call is the byte before it. */
		if (!row_at(rs->r[RWC_CFI_RA] - 1, &row, readable) || !cfa_of(rs, &row, &hi))
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
			w->b.pc = rs->r[RWC_CFI_RA];
			w->b.index = i;
			found = 1;
			if (!to_top)
				break;
		}
		r = step(rs, &row, hi, readable);
		if (r == 0)
			w->top = lo; /* the outermost frame: no buffer of the program here */
		if (r != 1)
			break;
		if (!found)
			chain(w, &row, hi);
	}
	return found == 1 ? 1 : found == -1 || w->top ? 0 : -1;
}

int rwc_frames_walk(uintptr_t a, uintptr_t sp0, uintptr_t pc, int to_top, struct rwc_stack_walk *w)
{
	struct regs rs = {.known = 0};
	int r = -1;

	/* From the entry's frame; where a frame up the stack needs a register
	 * that does not give (only sp and fp), the whole way out of the
	 * library's frames by their CFI.  (One call of walk_up: inlined, no
	 * frame of its own on a stack that may be small.) */
	for (int way = 0; way < 2 && r < 0; way++) {
		if (way == 0 && !from_entry(&rs, rwc_walk_entry_fp, sp0, pc))
			continue;
		if (way == 1) {
			rs.known = 0;
#if HAVE_GETREGS
			rwc_cfi_getregs(&rs);
			rs.known = GETREGS_KNOWN;
#endif
			if (!HAVE_GETREGS || !to_caller(&rs, sp0, pc))
				break;
		}
		r = walk_up(&rs, a, to_top, w);
	}
	return r;
}

int rwc_frames_trace(uintptr_t pc, uintptr_t *pcs, int max, int *cut)
{
	struct regs rs = {.known = 0};
	struct rwc_cfi_row row;
	uintptr_t cfa;
	int n = 0, r = 1;

	*cut = 0;
#if HAVE_GETREGS
	rwc_cfi_getregs(&rs);
	rs.known = GETREGS_KNOWN;
#else
	return -1;
#endif
	for (int steps = 0; n < max && steps < 16 + max; steps++) {
		if (n || rs.r[RWC_CFI_RA] == pc)
			pcs[n++] = rs.r[RWC_CFI_RA];
		if (n == max)
			break;
		if (!row_cached(rs.r[RWC_CFI_RA] - 1, &row) || !cfa_of(&rs, &row, &cfa) ||
		    (r = step(&rs, &row, cfa, readable_known)) != 1) {
			*cut = r != 0; /* not the outermost frame */
			break;
		}
	}
	return n;
}

int rwc_frames_callers(uintptr_t fp, uintptr_t sp0, uintptr_t pc, uintptr_t *pcs, int max)
{
	struct regs rs = {.known = 0};
	struct rwc_cfi_row row;
	uintptr_t cfa;
	int n = 0;

	if (!HAVE_GETREGS || !sp0 || max < 1)
		return -1;
	if (!from_entry(&rs, fp, sp0, pc)) {
#if HAVE_GETREGS
		rwc_cfi_getregs(&rs);
		rs.known = GETREGS_KNOWN;
#endif
		if (!to_caller(&rs, sp0, pc))
			return -1;
	}
	pcs[n++] = pc;
	while (n < max && row_at(rs.r[RWC_CFI_RA] - 1, &row, readable_sure) && cfa_of(&rs, &row, &cfa) &&
	       step(&rs, &row, cfa, readable_sure) == 1)
		pcs[n++] = rs.r[RWC_CFI_RA];
	return n;
}
