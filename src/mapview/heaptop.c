/* heaptop.c: the program break (see heaptop.h).  Reads glibc's __curbrk;
 * before glibc has one, asks the kernel by the real syscall() (bound at
 * start: no dlsym here, which a signal handler must not run). */
#include "config.h"

#include "mapview/heaptop.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/pagesize.h"
#include "base/real.h"

extern void *__curbrk; /* glibc's program break (read only) */

void *rwc_brk_seen;
void *rwc_brk_quiet RWC_START_DATA; /* (read by every free before a write: in .data, one fault) */

/* The program break: glibc's, or before glibc knows it the kernel's. */
static uintptr_t program_break(void)
{
	void *b = __atomic_load_n(&__curbrk, __ATOMIC_RELAXED);

	return b ? (uintptr_t)b : (uintptr_t)REAL(syscall)(SYS_brk, 0);
}

static uintptr_t page_end(uintptr_t b)
{
	uintptr_t pg = rwc_page_size();

	return b && b != (uintptr_t)-1 ? (b + pg - 1) & ~(pg - 1) : 0;
}

uintptr_t rwc_heap_end_taken(void)
{
	uintptr_t b = program_break();

	__atomic_store_n(&rwc_brk_seen, (void *)b, __ATOMIC_RELAXED);
	__atomic_store_n(&rwc_brk_quiet, RWC_BRK_VIEW, __ATOMIC_RELEASE);
	return page_end(b);
}

uintptr_t rwc_heap_end_refreshed(void)
{
	__atomic_store_n(&rwc_brk_seen, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&rwc_brk_quiet, RWC_BRK_VIEW, __ATOMIC_RELEASE);
	return page_end(program_break());
}
