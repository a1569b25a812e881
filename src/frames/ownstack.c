/* ownstack.c: the switch onto the library's own stack (ownstack.h; its
 * memory a part of the library's own, base/ownmem.h):
 * a function in assembly per architecture that keeps the caller's stack
 * pointer in its frame-pointer register, moves to the new stack, calls
 * fn(arg) and comes back.  Elsewhere FN runs where it is. */
#include "config.h"

#include <stdint.h>

#include "frames/ownstack.h"
#include "base/ownmem.h"

#define OWN_STACK RWC_OWN_STACK_SIZE

#if defined(__x86_64__) || defined(__aarch64__)
#define HAVE_SWITCH 1
/* rwc_call_on_stack(fn, arg, top): fn(arg) with the stack pointer at TOP
 * (16-byte aligned).  Its CFI describes the frame through the saved frame
 * pointer, so an unwinder walks from FN back to the caller. */
void rwc_call_on_stack(void (*fn)(void *), void *arg, void *top) __attribute__((visibility("hidden")));
#endif

#if defined(__x86_64__)
__asm__(".text\n"
	".p2align 4\n"
	".type rwc_call_on_stack, @function\n"
	"rwc_call_on_stack:\n"
	".cfi_startproc\n"
	"	pushq %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"	movq %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	"	movq %rdx, %rsp\n"
	"	movq %rdi, %rax\n"
	"	movq %rsi, %rdi\n"
	"	callq *%rax\n"
	"	movq %rbp, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"	popq %rbp\n"
	".cfi_def_cfa_offset 8\n"
	".cfi_restore %rbp\n"
	"	ret\n"
	".cfi_endproc\n"
	".size rwc_call_on_stack, .-rwc_call_on_stack\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".p2align 2\n"
	".type rwc_call_on_stack, %function\n"
	"rwc_call_on_stack:\n"
	".cfi_startproc\n"
	"	stp x29, x30, [sp, #-16]!\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset x29, -16\n"
	".cfi_offset x30, -8\n"
	"	mov x29, sp\n"
	".cfi_def_cfa_register x29\n"
	"	mov sp, x2\n"
	"	mov x3, x0\n"
	"	mov x0, x1\n"
	"	blr x3\n"
	"	mov sp, x29\n"
	".cfi_def_cfa_register sp\n"
	"	ldp x29, x30, [sp], #16\n"
	".cfi_def_cfa_offset 0\n"
	".cfi_restore x29\n"
	".cfi_restore x30\n"
	"	ret\n"
	".cfi_endproc\n"
	".size rwc_call_on_stack, .-rwc_call_on_stack\n");
#endif

int rwc_on_own_stack_now(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t lo = (uintptr_t)rwc_ownmem_part(RWC_OWN_STACK);

	return lo && sp >= lo && sp - lo < OWN_STACK;
}

void rwc_run_on_stack(void (*fn)(void *), void *arg, void *top)
{
#ifdef HAVE_SWITCH
	rwc_call_on_stack(fn, arg, top);
#else
	(void)top;
	fn(arg);
#endif
}

void rwc_on_own_stack(void (*fn)(void *), void *arg)
{
#ifdef HAVE_SWITCH
	char *lo = rwc_ownmem_part(RWC_OWN_STACK);

	if (lo && !rwc_on_own_stack_now()) {
		rwc_call_on_stack(fn, arg, lo + OWN_STACK);
		return;
	}
#endif
	fn(arg);
}
