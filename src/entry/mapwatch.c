/* mapwatch.c: exported functions that change the memory map.  Each makes
 * the real call, then tells the map view the exact change (mmap, munmap,
 * mprotect: mapnews.h) or marks it stale (the others) — also when called
 * from inside the library or its helpers.  For free/realloc
 * (malloc.c) it tells what a block's release unmaps: only blocks glibc
 * malloc served with mmap (and a moved heap top), read from malloc's own
 * chunk header, never the user's bytes.  Signal-safe apart from what the
 * real functions are; errno is the real call's. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "base/checks.h"
#include "bounds/bigfree.h"
#include "bounds/chunk.h"
#include "mapview/mapview.h"
#include "entry/allocrec.h"
#include "entry/mapwatch.h"
#include "mapview/mapnews.h"
#include "base/ownmem.h"
#include "base/real.h"
#include "mapview/snapshot.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define ENTRY __attribute__((visibility("default")))

ENTRY void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *r;

	if (flags & MAP_FIXED) { /* over a reserved freed block (bigfree.h): the program's now */
		rwc_big_forget((uintptr_t)addr, len);
		rwc_watch_change(addr, len, prot);
	}
	r = REAL(mmap)(addr, len, prot, flags, fd, off);
	rwc_watch_mmap(r, len, prot, flags);
	return r;
}

ENTRY void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	void *r;

	if (flags & MAP_FIXED) { /* over a reserved freed block (bigfree.h): the program's now */
		rwc_big_forget((uintptr_t)addr, len);
		rwc_watch_change(addr, len, prot);
	}
	r = REAL(mmap64)(addr, len, prot, flags, fd, off);
	rwc_watch_mmap(r, len, prot, flags);
	return r;
}

/* Before a call that can leave a hole: the library's own memory, mapped
 * now if not yet, must not land in it later (ownmem.h). */
#define BEFORE_HOLE() ((void)rwc_ownmem_get())

ENTRY int munmap(void *addr, size_t len)
{
	int r;

	BEFORE_HOLE();
	rwc_big_forget((uintptr_t)addr, len);
	rwc_watch_cut(addr, len);
	r = REAL(munmap)(addr, len);
	rwc_watch_munmap(addr, len, r != 0);
	return r;
}

ENTRY int mprotect(void *addr, size_t len, int prot)
{
	int r;

	rwc_watch_change(addr, len, prot);
	r = REAL(mprotect)(addr, len, prot);
	rwc_watch_mprotect(addr, len, prot, r != 0);
	return r;
}

ENTRY int pkey_mprotect(void *addr, size_t len, int prot, int pkey)
{
	int r;

	rwc_watch_change(addr, len, pkey ? 0 : prot); /* (a key may take access away) */
	r = REAL(pkey_mprotect)(addr, len, prot, pkey);
	rwc_watch_mprotect(addr, len, prot, r != 0);
	return r;
}

ENTRY void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL, *r;

	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		va_list ap;
		va_start(ap, flags);
		new_addr = va_arg(ap, void *); /* NOLINT(clang-analyzer-valist.Uninitialized): false positive */
		va_end(ap);
	}
	BEFORE_HOLE();
	rwc_big_forget((uintptr_t)old, old_len);
	rwc_watch_cut(old, old_len);
	if (flags & MREMAP_FIXED) {
		rwc_big_forget((uintptr_t)new_addr, new_len);
		rwc_watch_change(new_addr, new_len, 0); /* (whatever it moves there) */
	}
	r = REAL(mremap)(old, old_len, new_len, flags, new_addr);
	rwc_map_changed();
	return r;
}

ENTRY int brk(void *addr)
{
	int r;

	BEFORE_HOLE();
	RWC_CUT_ALL();
	r = REAL(brk)(addr);
	rwc_map_changed();
	return r;
}

ENTRY void *sbrk(intptr_t incr)
{
	void *r;

	if (incr < 0) {
		BEFORE_HOLE();
		RWC_CUT_ALL();
	}
	r = REAL(sbrk)(incr);
	if (incr)
		rwc_map_changed();
	return r;
}

ENTRY void *shmat(int id, const void *addr, int flags)
{
	void *r;

	if (addr) {
		/* (its size not known here) */
		rwc_watch_change(NULL, SIZE_MAX, (flags & SHM_RDONLY) ? PROT_READ : PROT_READ | PROT_WRITE);
	}
	r = REAL(shmat)(id, addr, flags);
	rwc_map_changed();
	return r;
}

ENTRY int shmdt(const void *addr)
{
	int r;

	BEFORE_HOLE();
	rwc_watch_cut(addr, SIZE_MAX);
	r = REAL(shmdt)(addr);
	rwc_map_changed();
	return r;
}

ENTRY int dlclose(void *handle)
{
	int r;

	BEFORE_HOLE();
	RWC_CUT_ALL(); /* (a module's memory no longer vouched for: vouch.c reads its headers) */
	r = REAL(dlclose)(handle);
	rwc_map_changed();
	return r;
}

/* ---- malloc: free() of an mmapped block unmaps it; a trim moves the
 * heap top.  Neither goes through an exported function we could see. */

extern void *__curbrk;

static int glibc_malloc = -1; /* is the next malloc glibc's? -1: not known yet */

/* What freeing P unmaps: 1 and the exact range for a block glibc malloc
 * served with mmap (from its chunk header: size, and the offset of the
 * mapping in prev_size); 0 for other blocks; -1 when unknown (another
 * allocator: a page-aligned block may be a mapping of its own).  A
 * release that may unmap is a first need of the library's own memory. */
int rwc_watch_chunk(void *p, uintptr_t *lo, uintptr_t *hi)
{
	if (!p)
		return 0;
	if (RWC_UNLIKELY(glibc_malloc < 0)) {
		int g = rwc_malloc_is_glibc();
		if (g < 0)
			return -1; /* malloc not bound yet: nothing known */
		glibc_malloc = g;
	}
	if (!glibc_malloc) {
		if (((uintptr_t)p & 4095) != 0 && ((uintptr_t)p & 4095) != 16)
			return 0;
		BEFORE_HOLE();
		return -1;
	}
	if (!rwc_chunk_mapping((uintptr_t)p, lo, hi))
		return 0;
	BEFORE_HOLE();
	return 1;
}

/* After free/realloc: record the unmapped block; a moved heap top is news
 * of a growth, or marks the view stale (a trim inside malloc), and so
 * does an unknown block.  Before the first need (a block that unmaps is
 * one: rwc_watch_chunk) there is no view to tell, only the ranges the
 * first checks' queries put in threads' caches (mapview.h): a
 * malloc-heavy start frees without a locked write to the view's
 * generation unless the break moved since. */
void rwc_watch_freed_slow(int m, uintptr_t lo, uintptr_t hi, int moved)
{
	void *q = __atomic_load_n(&rwc_brk_quiet, __ATOMIC_ACQUIRE);
	void *b = __atomic_load_n(&__curbrk, __ATOMIC_RELAXED);

	rwc_map_light_freed(m != 0); /* (what the first checks' fills hold: mapview.h) */
	if (!rwc_ownmem_used()) {
		/* no view: the fills know the break now; the next free that
		 * finds it there and unmaps nothing skips this (unless a fill
		 * or the view came since Q was read) */
		if (m == 0 && q != RWC_BRK_VIEW && b && b == __atomic_load_n(&__curbrk, __ATOMIC_ACQUIRE))
			__atomic_compare_exchange_n(&rwc_brk_quiet, &q, b, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_load_n(&__curbrk, __ATOMIC_RELAXED) != __atomic_load_n(&rwc_brk_seen, __ATOMIC_RELAXED))
		rwc_watch_brk();
	if (m < 0 || (m > 0 && moved))
		rwc_map_changed();
	else if (m > 0)
		rwc_snap_set(lo, hi, -1);
}
