/* rawsys.h: the constructor's two system calls, and the first checks'
 * getpid and signal mask, without libc: a first
 * call of getpid or fstat (or of syscall()) would have to be bound, a
 * symbol lookup that touches pages of libc's symbol tables no start needs
 * otherwise.  x86-64 inline (its struct stat is the kernel's); elsewhere
 * libc's functions. */
#ifndef RWC_RAWSYS_H
#define RWC_RAWSYS_H

#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/real.h"

#if defined(__x86_64__)
static inline long rwc_rawsys2_(long n, long a, long b)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return r; /* (-errno on failure: errno is not set) */
}

static inline long rwc_rawsys4_(long n, long a, long b, long c, long d)
{
	long r;
	register long r10 __asm__("r10") = d;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return r;
}
#endif

/* The thread's blocked signals (rt_sigprocmask): 0, or nonzero on failure. */
static inline int rwc_raw_sigmask(uint64_t *blocked)
{
#if defined(__x86_64__)
	return rwc_rawsys4_(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)blocked, sizeof *blocked) != 0;
#else
	return REAL(syscall)(SYS_rt_sigprocmask, SIG_BLOCK, NULL, blocked, sizeof *blocked) != 0;
#endif
}

static inline pid_t rwc_raw_getpid(void)
{
#if defined(__x86_64__)
	return (pid_t)rwc_rawsys2_(SYS_getpid, 0, 0);
#else
	return getpid();
#endif
}

/* fstat(FD, ST): 0, or nonzero on failure (errno not always set). */
static inline int rwc_raw_fstat(int fd, struct stat *st)
{
#if defined(__x86_64__)
	return rwc_rawsys2_(SYS_fstat, fd, (long)st) != 0;
#else
	return fstat(fd, st) != 0;
#endif
}

#endif
