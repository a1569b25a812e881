/* allocrec.c: what the allocator wrappers (malloc.c) record of a block in
 * the heap map (see allocrec.h): the size asked for beside the usable
 * size of glibc's chunk header, where it was allocated (a site, or a
 * trace with RWCHECK_HEAP_ORIGINS above 1), and whether blocks are
 * recorded at all: only while the next allocator is glibc's (who serves
 * the program's malloc: the modules' symbol tables, _dl_find_object) and the heap
 * check is on.  Called from inside malloc: no lock, allocates nothing
 * (the depot has its own memory); errno kept. */
#include "config.h"

#include "entry/allocrec.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <gnu/libc-version.h>
#include <stdint.h>

#include "base/real.h"
#include "base/symscope.h"
#include "bounds/chunk.h"
#include "bounds/depot.h"
#include "bounds/heapmap.h"
#include "bounds/sites.h"
#include "bounds/vcache.h"
#include "mapview/mapnews.h"
#include "frames/stackwalk.h"
#include "mapview/mapview.h"
#include "mapview/snapshot.h"

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

/* With RWCHECK_HEAP_ORIGINS above 1, the allocation's trace, kept in the
 * depot: its id, tagged with the top bit; else (or when no trace can be
 * had, or from inside a trace) the call site itself.  The trace comes from
 * the stack check's own walk (stackwalk.h: each frame's CFI, read lock-free,
 * nothing allocated); where that is not supported, or it stopped short (a
 * stale map view cannot vouch for the stack), from glibc's backtrace()
 * (libgcc's unwinder: no descriptor, no lock, ~10 times slower), ready
 * once rwc_malloc_trace_prepare has loaded it. */
static __thread int in_trace __attribute__((tls_model("initial-exec")));
static int trace_ready;

void rwc_malloc_trace_prepare(void)
{
	void *pcs[4];
	struct rwc_verdict v;

	in_trace = 1;
	backtrace(pcs, 4); /* loads libgcc_s: never from inside malloc */
	/* the walk reads only what the view vouches for: have one (the
	 * snapshot itself, not the first checks' single mappings) */
	rwc_snap_verdict(&v, (uintptr_t)&v, sizeof v, RWC_NEED_READ);
	in_trace = 0;
	__atomic_store_n(&trace_ready, 1, __ATOMIC_RELEASE);
}

/* The trace by backtrace(), from CALLER's frame: how many pcs. */
static int backtrace_from(uintptr_t caller, uintptr_t *pcs, int max)
{
	void *buf[RWC_DEPOT_FRAMES + 8];
	int n = 0, k, at;

	k = backtrace(buf, (int)(sizeof buf / sizeof buf[0]));
	for (at = 0; at < k && (uintptr_t)buf[at] != caller; at++)
		;
	for (; at < k && n < max; at++)
		pcs[n++] = (uintptr_t)buf[at];
	return n;
}

static uintptr_t origin_of(uintptr_t caller)
{
	uintptr_t pcs[RWC_DEPOT_FRAMES];
	int max = rwc_hm_origins < RWC_DEPOT_FRAMES ? rwc_hm_origins : RWC_DEPOT_FRAMES, n, cut;

	if (in_trace || !__atomic_load_n(&trace_ready, __ATOMIC_ACQUIRE))
		return caller;
	in_trace = 1;
	n = rwc_frames_trace(caller, pcs, max, &cut);
	if (n < 0 || cut)
		n = backtrace_from(caller, pcs, max);
	in_trace = 0;
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

int rwc_malloc_glibc_next = -1;

int rwc_malloc_next_glibc_slow(void *f)
{
	int v = same_module(f, (void *)&gnu_get_libc_version);

	__atomic_store_n(&rwc_malloc_glibc_next, v, __ATOMIC_RELAXED);
	return v;
}

void rwc_malloc_record(void *r, size_t req, uintptr_t caller, void *f)
{
	if (!r || !__atomic_load_n(&rwc_heap_track, __ATOMIC_RELAXED))
		return;
	if (req != SIZE_MAX && !rwc_malloc_next_glibc(f))
		req = SIZE_MAX; /* no header to read: the usable size stands */
	size_t word = req == SIZE_MAX ? 0 : rwc_chunk_word((uintptr_t)r);
	size_t usable = req == SIZE_MAX ? 0 : rwc_chunk_usable(word);
	size_t slack = req < usable ? usable - req : 0; /* (as the heap map records it) */
	const struct rwc_hm_leaf *l = rwc_hm_live_req((uintptr_t)r, rwc_malloc_site(caller), req, usable);

	if (l && !__atomic_load_n(&rwc_prot_cut, __ATOMIC_RELAXED)) /* the thread's fresh block (vcache.h) */
		rwc_vc_fresh(l, (uintptr_t)r, usable - slack, (unsigned)slack, word);
}
