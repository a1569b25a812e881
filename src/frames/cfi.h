/* cfi.h: a small, pure DWARF call-frame-information interpreter for
 * .eh_frame: finds a pc's FDE in a module's .eh_frame_hdr search table and
 * runs its CIE's and its own instructions up to the pc, giving the rule of
 * the CFA and of each saved register.  Every byte it reads lies in
 * [mem->lo, mem->hi) and, where mem->ok is set, in ranges ok() accepted;
 * malformed input gives "no row", never a wrong one or a read outside.
 * No allocation, no system call, no global state: async-signal-safe. */
#ifndef RWC_CFI_H
#define RWC_CFI_H

#include <stddef.h>
#include <stdint.h>

/* ---- x86-64: the architecture's part, here only ----------------------
 * DWARF register numbers 0..15 are rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 * r8..r15; 16 is the return address column (its CIEs say so); the return
 * address sits at CFA-8 and the caller's sp is the CFA. */
#define RWC_CFI_NREGS 17
#define RWC_CFI_RBX 3
#define RWC_CFI_RBP 6
#define RWC_CFI_RSP 7
#define RWC_CFI_RA 16
/* The registers a call preserves (rbx, rbp, r12..r15): bits by number. */
#define RWC_CFI_CALLEE_SAVED ((1u << 3) | (1u << 6) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15))

/* How the caller's value of a register is found. */
enum rwc_cfi_rule {
	RWC_CFI_SAME = 0,   /* unchanged (the default) */
	RWC_CFI_UNDEF,      /* not recoverable (the return address: outermost frame) */
	RWC_CFI_OFFSET,     /* saved at CFA + off */
	RWC_CFI_VAL_OFFSET, /* is CFA + off */
	RWC_CFI_REGISTER,   /* in register off */
	RWC_CFI_UNKNOWN     /* by a DWARF expression: not interpreted */
};

struct rwc_cfi_row {
	int cfa_reg;     /* CFA = reg + cfa_off; -1: by expression (unknown) */
	int64_t cfa_off;
	int signal;      /* 'S': a signal frame (the pc is not a return address) */
	unsigned char rule[RWC_CFI_NREGS];
	int64_t off[RWC_CFI_NREGS];
};

/* The bytes the interpreter may read: [lo, hi), and where OK is set only
 * ranges it returns nonzero for (asked once per table, FDE and CIE). */
struct rwc_cfi_mem {
	uintptr_t lo, hi;
	int (*ok)(uintptr_t a, size_t n);
};

/* The FDE whose table entry is the last one at or below PC in the
 * .eh_frame_hdr at HDR (binary search), or 0 (none; a table it cannot
 * read).  Whether the FDE covers PC is rwc_cfi_row's to say. */
uintptr_t rwc_cfi_search(const struct rwc_cfi_mem *m, uintptr_t hdr, uintptr_t pc);

/* The row of the FDE at FDE for PC (its CIE's instructions, then its own
 * up to PC): 1 filled, 0 none (PC outside the FDE, malformed, an
 * unsupported form). */
int rwc_cfi_row(const struct rwc_cfi_mem *m, uintptr_t fde, uintptr_t pc, struct rwc_cfi_row *row);

#endif
