/* rawsys.h: a system call without libc, for the constructor: libc's
 * syscall() would first have to be bound (a symbol lookup that touches
 * pages of libc's symbol tables no start needs otherwise).  x86-64
 * inline; elsewhere the real syscall(). */
#ifndef RWC_RAWSYS_H
#define RWC_RAWSYS_H

#include "base/real.h"

static inline long rwc_rawsys2(long n, long a, long b)
{
#if defined(__x86_64__)
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return r; /* (-errno on failure: errno is not set) */
#else
	return REAL(syscall)(n, a, b);
#endif
}

#endif
