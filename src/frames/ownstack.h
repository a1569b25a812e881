/* ownstack.h: a stack of the library's own for its deep work -- libdw's
 * DWARF walks, loading libunwind and libdw, unwinding and symbolizing a
 * report.  That work needs tens of KiB of stack; a program thread may have
 * 16 KiB (PTHREAD_STACK_MIN) or 64 KiB, and overflowing it would crash the
 * program.  One stack of 1 MiB for the process (a part of the library's
 * own memory, base/ownmem.h: mapped with it), used only under the library
 * lock (base/context.h rwc_libs_lock), so one user at a time.
 * Signal-safe, no allocation. */
#ifndef RWC_OWNSTACK_H
#define RWC_OWNSTACK_H

/* FN(ARG) on the own stack, the caller holding the library lock; on the
 * caller's own stack when there is none (the library's memory not mapped),
 * or when the caller is already on it (a nested use).  Unwinders and debuggers see through the switch
 * (the switch's CFI leads back to the caller's frame). */
void rwc_on_own_stack(void (*fn)(void *), void *arg);

/* FN(ARG) with the stack pointer at TOP (16-byte aligned; the caller's
 * memory below it), where the switch is known (x86_64, aarch64); else in
 * place.  Signal-safe. */
void rwc_run_on_stack(void (*fn)(void *), void *arg, void *top);

/* Whether SP lies on the own stack (tests). */
int rwc_on_own_stack_now(void);

#endif
