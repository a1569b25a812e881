/* real.h: the real (next) definitions of every function the library
 * interposes, bound on first use (from the modules' symbol tables, as
 * dlsym(RTLD_NEXT) would find them: real.c), published with atomic stores.  The accessor is lock-free and
 * signal-safe once bound. */
#ifndef RWC_REAL_H
#define RWC_REAL_H

#include <dlfcn.h>
#include <malloc.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "base/common.h"
#include "base/entries.h"

/* Interposed functions that are not I/O entry points. */
#define RWC_MISC_REALS(X)                                                    \
	X(mmap) X(mmap64) X(munmap) X(mprotect) X(pkey_mprotect) X(mremap)   \
	X(brk) X(sbrk) X(shmat) X(shmdt) X(dlclose) X(syscall)               \
	X(malloc) X(calloc) X(free) X(realloc) X(reallocarray) X(memalign)   \
	X(aligned_alloc) X(posix_memalign) X(valloc) X(pvalloc)              \
	X(malloc_usable_size)                                                 \
	X(execve) X(execle) X(execvpe) X(fexecve) X(fork) X(posix_spawn)     \
	X(posix_spawnp) X(execv) X(execvp)

enum rwc_real_idx {
#define RWC_ENTRY_X_(n) RWC_IDX_##n,
#include "base/entry_names.h"
	RWC_MISC_REALS(RWC_ENTRY_X_)
	RWC_REAL_COUNT
#undef RWC_ENTRY_X_
};

extern void *rwc_real_ptr[RWC_REAL_COUNT];
/* The function's name (in read-only data). */
const char *rwc_real_name(unsigned idx);

void *rwc_real_bind(unsigned idx);
/* Binds, in a parent before it forks, what a fork child calls first
 * (its output, the exec family): bound in the parent, a child does not
 * read libc's symbol tables (pages it does not share) to bind it. */
void rwc_real_bind_forkset(void);
/* Binds write() (what signal handlers call) at start; the rest bind on
 * first use. */
void rwc_real_bind_early(void);

static inline void *rwc_real_get(unsigned idx)
{
	void *p = __atomic_load_n(&rwc_real_ptr[idx], __ATOMIC_ACQUIRE);
	if (RWC_UNLIKELY(!p))
		p = rwc_real_bind(idx);
	return p;
}

/* The real read(), as a plain function: the reader the library's own
 * scans of /proc/self/maps pass to rwc_maps_scan. */
ssize_t rwc_read_real(int fd, void *buf, size_t n);

/* REAL(read)(fd, buf, n): the next definition of read, correctly typed. */
#define REAL(f) ((__typeof__(&f))rwc_real_get(RWC_IDX_##f))

/* Nonzero while this thread is inside dlsym() binding a symbol. */
extern __thread int rwc_binding __attribute__((tls_model("initial-exec")));

#endif
