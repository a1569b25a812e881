/* malloc.c: the allocator family, interposed to see where blocks start
 * and end (heapmap.h), how many bytes the program asked for (beside the
 * usable size glibc's chunk header says; malloc_usable_size() widens a
 * block to that), and what a free unmaps (mapwatch.h).  Each wrapper
 * calls the next definition (glibc's, or another allocator's) and records
 * the result; nothing else changes, errno included.  When the next
 * allocator is not glibc's malloc, or RWCHECK_CHECKS leaves the heap check
 * out, blocks are no longer recorded (rwc_heap_track, set by call.c).
 * While dlsym binds one of these (rwc_binding), allocations come from a
 * small static pool that is never freed.  Each block's allocation and
 * free sites go to the heap map (sites.h ids); free and realloc go
 * through the quarantine first (freeq.h). */
#include "config.h"
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bounds/chunk.h"
#include "bounds/depot.h"
#include "base/guard.h"
#include "bounds/heapmap.h"
#include "bounds/sites.h"
#include "entry/freeq.h"
#include "entry/mapwatch.h"
#include "mapview/ownheap.h"
#include "base/real.h"
#include "base/symscope.h"

#define ENTRY __attribute__((visibility("default")))
#define CALLER ((uintptr_t)__builtin_return_address(0))

int rwc_heap_track = 1;

static int same_module(const void *a, const void *b)
{
	const struct link_map *x = rwc_module_of(a);

	return x && x == rwc_module_of(b);
}

/* Is the next malloc defined in glibc's own libc.so?  (Comparing with
 * __libc_malloc is not enough: tcmalloc defines that name too.)  -1 while
 * malloc is not bound yet: this never binds (free() asks it). */
int rwc_malloc_is_glibc(void)
{
	void *next = __atomic_load_n(&rwc_real_ptr[RWC_IDX_malloc], __ATOMIC_ACQUIRE);

	if (!next)
		return -1;
	return same_module(next, (void *)&gnu_get_libc_version);
}

/* Who serves the program's malloc (symscope.h)?  This library must be
 * the first module to define it, and glibc's libc the next.  Reads the
 * modules' tables only: it may run inside another allocator's malloc. */
enum rwc_alloc_order rwc_malloc_order(const char **who)
{
	const char *ver = rwc_libc_symver("malloc");
	const struct link_map *self = rwc_sym_self(), *m;
	void *p;

	*who = "";
	m = rwc_sym_first("malloc", ver, NULL, &p);
	if (m != self) {
		if (m)
			*who = *m->l_name ? m->l_name : "the program itself";
		return RWC_ALLOC_OTHER_FIRST;
	}
	m = rwc_sym_first("malloc", ver, self, &p);
	if (!m || !same_module(p, (void *)&gnu_get_libc_version)) {
		if (m)
			*who = *m->l_name ? m->l_name : "the program itself";
		return RWC_ALLOC_OTHER_NEXT;
	}
	return RWC_ALLOC_OURS;
}

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

/* With RWCHECK_HEAP_ORIGINS above 1, the allocation's trace, kept in the
 * depot: its id, tagged with the top bit; else (or when no trace can be
 * had, or from inside a trace) the call site itself.  The trace comes from
 * glibc's backtrace() (libgcc's unwinder: no descriptor, no lock), ready
 * once rwc_malloc_trace_prepare has loaded it. */
static __thread int in_trace __attribute__((tls_model("initial-exec")));
static int trace_ready;

void rwc_malloc_trace_prepare(void)
{
	void *pcs[4];

	in_trace = 1;
	backtrace(pcs, 4); /* loads libgcc_s: never from inside malloc */
	in_trace = 0;
	__atomic_store_n(&trace_ready, 1, __ATOMIC_RELEASE);
}

static uintptr_t origin_of(uintptr_t caller)
{
	void *buf[RWC_DEPOT_FRAMES + 8];
	uintptr_t pcs[RWC_DEPOT_FRAMES];
	int n = 0, k, at;

	if (in_trace || !__atomic_load_n(&trace_ready, __ATOMIC_ACQUIRE))
		return caller;
	in_trace = 1;
	k = backtrace(buf, (int)(sizeof buf / sizeof buf[0]));
	in_trace = 0;
	for (at = 0; at < k && (uintptr_t)buf[at] != caller; at++)
		;
	for (; at < k && n < rwc_hm_origins && n < RWC_DEPOT_FRAMES; at++)
		pcs[n++] = (uintptr_t)buf[at];
	if (n > 1) {
		uint32_t id = rwc_depot_put(pcs, n);
		if (id)
			return RWC_HM_TRACE | id;
	}
	return caller;
}

uint32_t rwc_malloc_site_traced(uintptr_t caller)
{
	return rwc_site_id(origin_of(caller));
}

/* Inside the library (rwc_depth), blocks come from its own heap
 * (ownheap.h); NULL when that cannot serve (the program's then does). */
#define OWN(n, al) (RWC_UNLIKELY(rwc_depth) ? rwc_ownheap_alloc((n), (al)) : NULL)

int rwc_malloc_glibc_next = -1;

int rwc_malloc_next_glibc_slow(void *f)
{
	int v = same_module(f, (void *)&gnu_get_libc_version);

	__atomic_store_n(&rwc_malloc_glibc_next, v, __ATOMIC_RELAXED);
	return v;
}

#define live_req(r, req, caller, f) rwc_malloc_record((r), (req), (caller), (void *)(f))
void rwc_malloc_record(void *r, size_t req, uintptr_t caller, void *f)
{
	if (!r || !__atomic_load_n(&rwc_heap_track, __ATOMIC_RELAXED))
		return;
	if (req != SIZE_MAX && !rwc_malloc_next_glibc(f))
		req = SIZE_MAX; /* no header to read: the usable size stands */
	rwc_hm_live_req((uintptr_t)r, rwc_malloc_site(caller), req,
			req == SIZE_MAX ? 0 : rwc_chunk_usable(rwc_chunk_word((uintptr_t)r)));
}


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
 * the bytes asked for, 0 for a free. */
static void *resize(void *p, size_t n, void *r, int m, uintptr_t lo, uintptr_t hi, uintptr_t origin)
{
	if (r)
		live_req(r, n, origin, REAL(realloc));
	else if (p && n) /* failed: the old block stays, as it was */
		live_req(p, SIZE_MAX, origin, REAL(realloc));
	rwc_watch_freed(m, lo, hi, 1);
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
		size_t pg = (size_t)getpagesize();

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
