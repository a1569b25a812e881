/* malloc.c: the allocator family, interposed to see where blocks start
 * and end, how many bytes the program asked for (the heap map's record:
 * allocrec.h; malloc_usable_size() widens a block to its usable size)
 * and what a free unmaps (mapwatch.h).  Each wrapper calls the next
 * definition (glibc's, or another allocator's) and records the result;
 * nothing else changes, errno included.  Inside the library (rwc_depth)
 * blocks come from its own heap (ownheap.h); while dlsym binds one of
 * these (rwc_binding), from a small static pool that is never freed.
 * free and realloc go through the quarantine first (freeq.h). */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/guard.h"
#include "base/pagesize.h"
#include "bounds/heapmap.h"
#include "entry/allocrec.h"
#include "entry/freeq.h"
#include "entry/mapwatch.h"
#include "mapview/ownheap.h"
#include "base/real.h"

#define ENTRY __attribute__((visibility("default")))
#define CALLER ((uintptr_t)__builtin_return_address(0))

/* Does K * N overflow a size_t? */
static inline int overflows(size_t k, size_t n)
{
	return n && k > (size_t)-1 / n;
}

/* ---- the pool for allocations made by dlsym while it binds ---- */

static _Alignas(16) unsigned char pool[16384];
static size_t pool_used;

static int in_pool(const void *p)
{
	return (const unsigned char *)p >= pool && (const unsigned char *)p < pool + sizeof pool;
}

static void *pool_alloc(size_t n)
{
	size_t need = ((n + 15) & ~(size_t)15) + 16, at;

	if (n > sizeof pool)
		return NULL;
	at = __atomic_fetch_add(&pool_used, need, __ATOMIC_RELAXED);
	if (at + need > sizeof pool)
		return NULL;
	*(size_t *)(pool + at) = n; /* for realloc */
	return pool + at + 16;      /* static memory: already zero */
}

/* The next definition of F, or NULL while dlsym is binding (then the
 * pool serves). */
#define NEXT(f) (RWC_UNLIKELY(rwc_binding) && !rwc_real_ptr[RWC_IDX_##f] ? NULL : REAL(f))

/* Inside the library (rwc_depth), blocks come from its own heap
 * (ownheap.h); NULL when that cannot serve (the program's then does). */
#define OWN(n, al) (RWC_UNLIKELY(rwc_depth) ? rwc_ownheap_alloc((n), (al)) : NULL)

#define live_req(r, req, caller, f) rwc_malloc_record((r), (req), (caller), (void *)(f))


ENTRY void *malloc(size_t n)
{
	__typeof__(&malloc) f = NEXT(malloc);
	void *r;

	if (!f)
		return pool_alloc(n);
	if ((r = OWN(n, 16)))
		return r;
	r = f(n);
	live_req(r, n, CALLER, f);
	return r;
}

ENTRY void *calloc(size_t k, size_t n)
{
	__typeof__(&calloc) f = NEXT(calloc);
	void *r;

	if (!f)
		return overflows(k, n) ? NULL : pool_alloc(k * n);
	if (!overflows(k, n) && (r = OWN(k * n, 16)))
		return memset(r, 0, k * n);
	r = f(k, n);
	live_req(r, k * n, CALLER, f);
	return r;
}

/* Before the block at P is released (free, or realloc that may move it):
 * what the release unmaps, and the heap map told first, since another
 * thread may be handed the block as soon as it is free. */
static int releasing(void *p, uintptr_t *lo, uintptr_t *hi, uintptr_t caller)
{
	int m = rwc_watch_chunk(p, lo, hi);

	if (p && __atomic_load_n(&rwc_heap_track, __ATOMIC_RELAXED)) /* an unmapped block leaves no freed block */
		rwc_hm_freed((uintptr_t)p, m == 0, m == 0 ? rwc_malloc_site(caller) : 0);
	return m;
}

ENTRY void free(void *p)
{
	__typeof__(&free) f;
	uintptr_t lo = 0, hi = 0;
	int m;

	if (RWC_UNLIKELY(in_pool(p)) || (RWC_UNLIKELY(rwc_binding) && !rwc_real_ptr[RWC_IDX_free]))
		return; /* pool memory, or freed from inside dlsym while binding: leak it */
	if (rwc_ownheap_has(p)) {
		rwc_ownheap_free(p);
		return;
	}
	if (rwc_freeq_free(p, CALLER))
		return;
	f = REAL(free);
	m = releasing(p, &lo, &hi, CALLER);
	f(p);
	rwc_watch_freed(m, lo, hi, 0);
}

static void *pool_realloc(void *p, size_t n)
{
	void *r = malloc(n);

	if (r)
		memcpy(r, p, *(size_t *)((unsigned char *)p - 16) < n ? *(size_t *)((unsigned char *)p - 16) : n);
	return r;
}

/* realloc of a block of the library's own heap, or any realloc made
 * inside the library: a new block (from whichever heap malloc serves
 * now), the contents copied, the old block freed where it belongs. */
static void *own_realloc(void *p, size_t n)
{
	size_t old = rwc_ownheap_has(p) ? rwc_ownheap_usable(p) : REAL(malloc_usable_size)(p);
	void *r;

	if (n == 0) {
		free(p);
		return NULL;
	}
	if (!(r = malloc(n)))
		return NULL;
	memcpy(r, p, old < n ? old : n);
	free(p);
	return r;
}

/* realloc of an mmapped block may mremap it anywhere (moved = 1).  N:
 * the bytes asked for, 0 for a free.  An mmapped block moved or freed
 * leaves its range reserved (freeq.h). */
static void *resize(void *p, size_t n, void *r, int m, uintptr_t lo, uintptr_t hi, uintptr_t origin)
{
	rwc_watch_freed(m, lo, hi, 1); /* (first: a map change it tells empties the thread's fresh block) */
	if (r)
		live_req(r, n, origin, REAL(realloc));
	else if (p && n) /* failed: the old block stays, as it was */
		live_req(p, SIZE_MAX, origin, REAL(realloc));
	if (m == 1 && (r ? r != p : !n))
		rwc_freeq_moved(p, lo, hi, origin);
	return r;
}

ENTRY void *realloc(void *p, size_t n)
{
	uintptr_t lo = 0, hi = 0;
	void *r;
	int m;

	if (RWC_UNLIKELY(in_pool(p)))
		return pool_realloc(p, n);
	if (!p)
		return malloc(n);
	if (RWC_UNLIKELY(rwc_depth) || rwc_ownheap_has(p))
		return own_realloc(p, n);
	if ((r = rwc_freeq_move(p, n, CALLER, &m)) || m)
		return r;
	m = releasing(p, &lo, &hi, CALLER);
	return resize(p, n, REAL(realloc)(p, n), m, lo, hi, CALLER);
}

ENTRY void *reallocarray(void *p, size_t k, size_t n)
{
	uintptr_t lo = 0, hi = 0;
	void *r;
	int m = 0;

	if (RWC_UNLIKELY(in_pool(p)))
		return overflows(k, n) ? NULL : pool_realloc(p, k * n);
	if (p && (RWC_UNLIKELY(rwc_depth) || rwc_ownheap_has(p)) && !overflows(k, n))
		return own_realloc(p, k * n);
	if (p && !overflows(k, n) && ((r = rwc_freeq_move(p, k * n, CALLER, &m)) || m))
		return r;
	m = p ? releasing(p, &lo, &hi, CALLER) : 0;
	return resize(p, overflows(k, n) ? SIZE_MAX : k * n, REAL(reallocarray)(p, k, n), m, lo, hi, CALLER);
}

ENTRY void *memalign(size_t al, size_t n)
{
	void *r = OWN(n, al);

	if (r)
		return r;
	r = REAL(memalign)(al, n);
	live_req(r, n, CALLER, REAL(memalign));
	return r;
}

ENTRY void *aligned_alloc(size_t al, size_t n)
{
	void *r = OWN(n, al);

	if (r)
		return r;
	r = REAL(aligned_alloc)(al, n);
	live_req(r, n, CALLER, REAL(aligned_alloc));
	return r;
}

ENTRY int posix_memalign(void **out, size_t al, size_t n)
{
	void *r = OWN(n, al);
	int e;

	if (r) {
		*out = r;
		return 0;
	}
	e = REAL(posix_memalign)(out, al, n);
	if (e == 0)
		live_req(*out, n, CALLER, REAL(posix_memalign));
	return e;
}

ENTRY void *valloc(size_t n)
{
	void *r = OWN(n, 4096);

	if (r)
		return r;
	r = REAL(valloc)(n);
	live_req(r, n, CALLER, REAL(valloc));
	return r;
}

ENTRY void *pvalloc(size_t n)
{
	void *r = n <= (size_t)-1 - 4095 ? OWN((n + 4095) & ~(size_t)4095, 4096) : NULL;

	if (r)
		return r;
	r = REAL(pvalloc)(n);
	if (r) { /* pvalloc promises whole pages */
		size_t pg = rwc_page_size();

		live_req(r, n <= (size_t)-1 - (pg - 1) ? (n + pg - 1) & ~(pg - 1) : n, CALLER, REAL(pvalloc));
	}
	return r;
}

/* After this, the program may use every usable byte of P's block: it is
 * judged by its usable size (heapmap.h). */
ENTRY size_t malloc_usable_size(void *p)
{
	__typeof__(&malloc_usable_size) f;
	size_t r;

	if (RWC_UNLIKELY(in_pool(p)))
		return *(size_t *)((unsigned char *)p - 16);
	if (rwc_ownheap_has(p))
		return rwc_ownheap_usable(p);
	if (!(f = NEXT(malloc_usable_size)))
		return 0; /* from inside dlsym, binding it */
	r = f(p);
	if (p && __atomic_load_n(&rwc_heap_track, __ATOMIC_RELAXED))
		rwc_hm_widen((uintptr_t)p);
	return r;
}
