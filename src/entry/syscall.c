/* syscall.c: glibc's syscall() interposed.  The numbers of the checked
 * calls are checked like their libc wrappers (call name "syscall", with the
 * system call's name; those that take a capacity: syscall_args.c); the
 * numbers that change the memory map tell the map view (mmap, munmap,
 * mprotect: the exact change, mapnews.h; the others: stale).  Everything
 * else passes straight through. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "entry/args.h"
#include "entry/call.h"
#include "base/entry_id.h"
#include "bounds/bigfree.h"
#include "mapview/mapview.h"
#include "mapview/snapshot.h"
#include "entry/mapwatch.h"
#include "mapview/mapnews.h"
#include "base/ownmem.h"
#include "base/real.h"

/* Fills C for system call NR with arguments A; 0 if NR is not checked. */
static int describe(long nr, const long *a, struct rwc_call *c)
{
	c->name = "syscall";
	c->fd = (int)a[0];
	switch (nr) {
/* (The system call's name and its number as an entry point, entry_id.h.) */
#define SYS(sys) case SYS_##sys: c->sysname = #sys; c->entry = RWC_ENTRY_SYS_##sys
#define BUF(sys, nd) SYS(sys); c->shape = RWC_SHAPE_BUF; c->need = nd; \
		c->buf = (const void *)a[1]; c->count = (size_t)a[2]
#define IOV(sys, nd) SYS(sys); c->shape = RWC_SHAPE_IOV; c->need = nd; \
		c->iov = (const struct iovec *)a[1]; c->iovcnt = (int)a[2]
	BUF(read, RWC_NEED_WRITE); return 1;
	BUF(write, RWC_NEED_READ); return 1;
	BUF(pread64, RWC_NEED_WRITE); c->has_offset = 1; c->offset = a[3]; return 1;
	BUF(pwrite64, RWC_NEED_READ); c->has_offset = 1; c->offset = a[3]; return 1;
	BUF(recvfrom, RWC_NEED_WRITE); return 1;
	BUF(sendto, RWC_NEED_READ); return 1;
	IOV(readv, RWC_NEED_WRITE); return 1;
	IOV(writev, RWC_NEED_READ); return 1;
#if __WORDSIZE == 64
	/* 32-bit ABIs split the offset in two registers; checked there by
	 * the libc wrappers only. */
	IOV(preadv, RWC_NEED_WRITE); c->has_offset = 1; c->offset = a[3]; return 1;
	IOV(pwritev, RWC_NEED_READ); c->has_offset = 1; c->offset = a[3]; return 1;
	IOV(preadv2, RWC_NEED_WRITE); c->has_offset = 1; c->offset = a[3];
		c->offset_minus_one_ok = 1; return 1;
	IOV(pwritev2, RWC_NEED_READ); c->has_offset = 1; c->offset = a[3];
		c->offset_minus_one_ok = 1; return 1;
#endif
	SYS(recvmsg); c->shape = RWC_SHAPE_MSG;
		c->need = RWC_NEED_WRITE; c->msg = (const void *)a[1]; return 1;
	SYS(sendmsg); c->shape = RWC_SHAPE_MSG;
		c->need = RWC_NEED_READ; c->msg = (const void *)a[1]; return 1;
#undef SYS
#undef BUF
#undef IOV
	}
	return 0;
}

static int leaves_hole(long nr)
{
#ifdef SYS_shmdt
	if (nr == SYS_shmdt)
		return 1;
#endif
	return nr == SYS_munmap || nr == SYS_mremap || nr == SYS_brk;
}

static int changes_map(long nr)
{
	switch (nr) {
	case SYS_munmap: case SYS_mprotect: case SYS_mremap: case SYS_brk:
#ifdef SYS_mmap
	case SYS_mmap:
#endif
#ifdef SYS_mmap2
	case SYS_mmap2:
#endif
#ifdef SYS_pkey_mprotect
	case SYS_pkey_mprotect:
#endif
#ifdef SYS_shmat
	case SYS_shmat: case SYS_shmdt:
#endif
#ifdef SYS_remap_file_pages
	case SYS_remap_file_pages:
#endif
		return 1;
	}
	return 0;
}

/* Before a call that changes the map (changes_map): a reserved freed
 * block (bigfree.h) it unmaps or maps over is the program's now; the
 * range it changes, and memory it may leave other than readable and
 * writable, is told (mapwatch.h). */
static void before_change(long nr, const long *a)
{
	switch (nr) {
#ifdef SYS_mmap
	case SYS_mmap:
		if (a[3] & MAP_FIXED) {
			rwc_big_forget((uintptr_t)a[0], (size_t)a[1]);
			rwc_watch_change((void *)a[0], (size_t)a[1], (int)a[2]);
		}
		break;
#endif
	case SYS_mprotect:
		rwc_watch_change((void *)a[0], (size_t)a[1], (int)a[2]);
		break;
	case SYS_mremap:
		if (a[3] & MREMAP_FIXED) {
			rwc_big_forget((uintptr_t)a[4], (size_t)a[2]);
			rwc_watch_change((void *)a[4], (size_t)a[2], 0);
		}
		/* fall through */
	case SYS_munmap:
		rwc_big_forget((uintptr_t)a[0], (size_t)a[1]);
		rwc_watch_cut((void *)a[0], (size_t)a[1]);
		break;
	case SYS_brk:
		if (a[0]) /* (0 asks where the break is) */
			RWC_CUT_ALL();
		break;
#ifdef SYS_shmdt
	case SYS_shmdt:
		rwc_watch_cut((void *)a[0], SIZE_MAX);
		break;
#endif
	default: /* the rest of changes_map's (mmap2, pkey_mprotect, shmat, ...): whatever they do */
		rwc_watch_change(NULL, SIZE_MAX, 0);
	}
}

__attribute__((visibility("default"), noinline)) long syscall(long nr, ...)
{
	struct rwc_call c = {.caller = __builtin_return_address(0), .caller_sp = RWC_CALLER_SP(),
			     .caller_fp = RWC_ENTRY_FP()};
	struct rwc_arg args[RWC_ARGS_MAX];
	va_list ap;
	long a[6], r;
	int described;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long); /* NOLINT(clang-analyzer-valist.Uninitialized): false positive */
	va_end(ap);
	described = describe(nr, a, &c);
	if (rwc_syscall_args(nr, a, &c, args))
		described = 1;
	if (described && RWC_UNLIKELY(rwc_enter(&c)))
		return -1;
	if (RWC_UNLIKELY(leaves_hole(nr)))
		(void)rwc_ownmem_get(); /* before the hole: the library's memory must not land in it */
	if (RWC_UNLIKELY(changes_map(nr)))
		before_change(nr, a);
	r = REAL(syscall)(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	switch (nr) {
#ifdef SYS_mmap
	case SYS_mmap:
		rwc_watch_mmap(r == -1 ? MAP_FAILED : (void *)r, (size_t)a[1], (int)a[2], (int)a[3]);
		break;
#endif
	case SYS_munmap:
		rwc_watch_munmap((void *)a[0], (size_t)a[1], r != 0);
		break;
	case SYS_mprotect:
		rwc_watch_mprotect((void *)a[0], (size_t)a[1], (int)a[2], r != 0);
		break;
	default:
		if (changes_map(nr))
			rwc_map_changed();
	}
	return r;
}
