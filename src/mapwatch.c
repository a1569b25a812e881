/* mapwatch.c: exported functions that change the memory map.  Each makes
 * the real call, then marks the map view stale (mapview.h) — also when
 * called from inside the library or its helpers.  free/realloc do so only
 * for blocks glibc malloc served with mmap (and when the heap top moved),
 * reading malloc's own chunk header, never the user's bytes.  Signal-safe
 * apart from what the real functions are; errno is the real call's. */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "mapview.h"
#include "real.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define ENTRY __attribute__((visibility("default")))

ENTRY void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *r = REAL(mmap)(addr, len, prot, flags, fd, off);
	rwc_map_changed();
	return r;
}

ENTRY void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	void *r = REAL(mmap64)(addr, len, prot, flags, fd, off);
	rwc_map_changed();
	return r;
}

ENTRY int munmap(void *addr, size_t len)
{
	int r = REAL(munmap)(addr, len);
	rwc_map_changed();
	return r;
}

ENTRY int mprotect(void *addr, size_t len, int prot)
{
	int r = REAL(mprotect)(addr, len, prot);
	rwc_map_changed();
	return r;
}

ENTRY int pkey_mprotect(void *addr, size_t len, int prot, int pkey)
{
	int r = REAL(pkey_mprotect)(addr, len, prot, pkey);
	rwc_map_changed();
	return r;
}

ENTRY void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL, *r;

	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		va_list ap;
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	r = REAL(mremap)(old, old_len, new_len, flags, new_addr);
	rwc_map_changed();
	return r;
}

ENTRY int brk(void *addr)
{
	int r = REAL(brk)(addr);
	rwc_map_changed();
	return r;
}

ENTRY void *sbrk(intptr_t incr)
{
	void *r = REAL(sbrk)(incr);
	if (incr)
		rwc_map_changed();
	return r;
}

ENTRY void *shmat(int id, const void *addr, int flags)
{
	void *r = REAL(shmat)(id, addr, flags);
	rwc_map_changed();
	return r;
}

ENTRY int shmdt(const void *addr)
{
	int r = REAL(shmdt)(addr);
	rwc_map_changed();
	return r;
}

ENTRY int dlclose(void *handle)
{
	int r = REAL(dlclose)(handle);
	rwc_map_changed();
	return r;
}

/* ---- malloc: free() of an mmapped block unmaps it; a trim moves the
 * heap top.  Neither goes through an exported function we could see. */

#define IS_MMAPPED 2 /* glibc malloc's chunk flag */

extern void *__curbrk;
extern void __libc_free(void *);

static int glibc_malloc = -1; /* is REAL(free) glibc's? -1: not known yet */
static void *seen_brk;

static int mmapped_chunk(void *p)
{
	if (!p)
		return 0;
	if (RWC_UNLIKELY(glibc_malloc < 0))
		glibc_malloc = (void *)REAL(free) == (void *)&__libc_free;
	if (!glibc_malloc)
		return ((uintptr_t)p & 4095) == 0 || ((uintptr_t)p & 4095) == 16;
	return (((size_t *)p)[-1] & IS_MMAPPED) != 0;
}

static void after_free(int unmapped)
{
	void *b = __atomic_load_n(&__curbrk, __ATOMIC_RELAXED);

	if (b != __atomic_load_n(&seen_brk, __ATOMIC_RELAXED)) {
		__atomic_store_n(&seen_brk, b, __ATOMIC_RELAXED);
		unmapped = 1;
	}
	if (unmapped)
		rwc_map_changed();
}

ENTRY void free(void *p)
{
	void *f = __atomic_load_n(&rwc_real_ptr[RWC_IDX_free], __ATOMIC_ACQUIRE);
	int m;

	if (RWC_UNLIKELY(!f)) {
		if (rwc_binding)
			return; /* freed from inside dlsym while binding: leak it */
		f = rwc_real_bind(RWC_IDX_free);
	}
	m = mmapped_chunk(p);
	((void (*)(void *))f)(p);
	after_free(m);
}

ENTRY void *realloc(void *p, size_t n)
{
	int m = mmapped_chunk(p);
	void *r = REAL(realloc)(p, n);
	after_free(m);
	return r;
}

ENTRY void *reallocarray(void *p, size_t nmemb, size_t size)
{
	int m = mmapped_chunk(p);
	void *r = REAL(reallocarray)(p, nmemb, size);
	after_free(m);
	return r;
}
