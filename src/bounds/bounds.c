/* bounds.c: the heap and stack checks (see bounds.h): finds what holds a
 * buffer (heapmap.h, stackobj.h, globals.h) and asks the pure verdicts
 * (checks.h); and where a fortified call's buffer lies when its count runs
 * past the compiler's size.  Async-signal-safe (libdw only under the
 * library lock, which a handler does not take). */
#include "config.h"

#include "bounds/bounds.h"

#include <errno.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "mapview/tcache.h"
#include "bounds/bigfree.h"
#include "bounds/chunk.h"
#include "bounds/heapmap.h"
#include "bounds/quarantine.h"
#include "bounds/sites.h"
#include "mapview/mapnews.h"
#include "mapview/mapview.h"
#include "mapview/probe.h"
#include "mapview/vouch.h"
#include "bounds/globals.h"
#include "base/context.h"
#include "bounds/stackobj.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

static uintptr_t range_end(uintptr_t p, size_t n)
{
	return n > UINTPTR_MAX - p ? UINTPTR_MAX : p + n;
}

/* ---- heap: glibc's chunk header (size | flags) sits just below a block;
 * read only when the view knows it readable, never the user's bytes. */

/* chunk_usable()'s answer when the fast path cannot tell. */
#define UNKNOWN SIZE_MAX

/* heap()'s answer in the fast path when a header it needs is UNKNOWN: not
 * a verdict; the full check decides. */
#define HEAP_UNSURE (-1)

/* The usable bytes of the block at P from its chunk header: 0 for no
 * readable header.  The fast path (FULL 0) asks the cached view only: the
 * thread's cache, then the snapshot, which may be unable to tell (stale:
 * another thread changed the map since this call's buffer was found
 * mapped; being written); then the answer is UNKNOWN, never 0, since a
 * header the view cannot vouch for is no sign that no block is there.
 * The full check (FULL 1) asks the view brought up to date. */
static size_t chunk_usable(uintptr_t p, int full)
{
	uintptr_t h = p - RWC_CHUNK_HDR;
	struct rwc_verdict v;
	int says; /* the header is readable: 1 yes, 0 no, -1 cannot tell */

	if (p < RWC_CHUNK_HDR)
		return 0;
	says = rwc_fast_range((const void *)h, RWC_CHUNK_HDR, RWC_NEED_READ);
	if (!says)
		says = rwc_snap_lookup(h, RWC_CHUNK_HDR, RWC_NEED_READ);
	if (says <= 0 && full)
		says = rwc_map_verdict(h, RWC_CHUNK_HDR, RWC_NEED_READ, &v) == RWC_OK;
	if (says < 0)
		return UNKNOWN;
	return says ? rwc_chunk_usable(rwc_chunk_word(p)) : 0;
}

/* The block at P (0: none) as the verdict wants it, its usable bytes U
 * from its header; 0 when P has none or its header says none. */
static void block_at(struct rwc_heap_block *h, uintptr_t p, size_t u)
{
	h->start = p;
	h->usable = p ? u : 0;
	h->size = h->usable ? rwc_hm_requested(p, h->usable) : 0;
	h->header = 0;
}

/* Where the block B (live or freed, starting at b->lo) was allocated and
 * freed, and how long the quarantine has held it. */
static void block_sites(struct rwc_bounds *b)
{
	uint32_t w;

	if (b->kind != RWC_HOLDER_BLOCK && b->kind != RWC_HOLDER_FREED)
		return;
	w = rwc_hm_sites(b->lo);
	b->origin = rwc_site_key(RWC_HM_ALLOC_SITE(w));
	b->freed_at = 0;
	b->freed_ago = 0;
	if (b->kind == RWC_HOLDER_FREED) {
		b->freed_at = rwc_site_key(RWC_HM_FREE_SITE(w));
		b->freed_ago = rwc_q_age(b->lo);
	}
}

/* USABLE bytes at P, read from a freed block's header, if they can be a
 * block: it and its header wholly mapped and readable now (asks the map
 * view).  A freed mark outlives its block when glibc gives the memory
 * back; a mapping made there since may hold any word where the header was
 * (python's test_socket: 4 GiB, a false use-after-free).  0: no block. */
static size_t freed_plausible(uintptr_t p, size_t usable)
{
	struct rwc_verdict v;

	if (!usable || usable > ((size_t)1 << 40) || p - RWC_CHUNK_HDR > UINTPTR_MAX - RWC_CHUNK_HDR - usable)
		return 0;
	return rwc_map_verdict(p - RWC_CHUNK_HDR, usable + RWC_CHUNK_HDR, RWC_NEED_READ, &v) == RWC_OK ? usable : 0;
}

/* The usable bytes of the freed block at P, read from its header with
 * the kernel's help (process_vm_readv on this process: a fault is an
 * error, not a signal): glibc gives freed memory back with its own munmap
 * (a freed mmapped chunk, an arena heap trimmed), which no interposed call
 * shows the map view, so a view that calls it readable may be stale.  The
 * fast path (FULL 0) leaves it to the full check: UNKNOWN. */
static size_t freed_usable(uintptr_t p, int full)
{
	uintptr_t word;

	if (!full)
		return UNKNOWN;
	if (p < RWC_CHUNK_HDR)
		return 0;
	return rwc_probe_read(&word, p - sizeof word, sizeof word) == 1 ? freed_plausible(p, rwc_chunk_usable(word)) : 0;
}

__thread uintptr_t rwc_hblock[RWC_HBLOCKS] __attribute__((tls_model("initial-exec")));
static TLS unsigned hblock_next;

/* Remembers the block start L for this thread's next calls (once). */
static void hblock_note(uintptr_t l)
{
	for (int i = 0; i < RWC_HBLOCKS; i++)
		if (rwc_hblock[i] == l)
			return;
	rwc_hblock[hblock_next++ % RWC_HBLOCKS] = l;
}

/* [p, p+n), in no block, against the live block that starts lowest
 * above p, if the range reaches its chunk header (checks.h
 * rwc_heap_underflow): heap()'s answer then. */
static int run_into(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *blo, uintptr_t *bhi, int full)
{
	uintptr_t top = rwc_hm_reach(range_end(p, n) - 1), q, r;
	struct rwc_heap_block nb;
	size_t u;
	int pr;

	if (n == 0 || rwc_hm_nothing_below(top) || !(q = rwc_hm_prev(top, 0, p + 1)) || q <= p)
		return RWC_OK;
	/* the lowest of the blocks in reach (a range over several: the
	 * first bad byte is the lowest's); a few steps down suffice */
	for (int k = 0; k < 256 && q > p + 1 && (r = rwc_hm_prev(q - 1, 0, p + 1)) > p && r < q; k++)
		q = r;
	if ((u = chunk_usable(q, full)) == UNKNOWN)
		return HEAP_UNSURE;
	block_at(&nb, q, u);
	pr = rwc_heap_underflow(p, n, &nb, b, blo, bhi);
	if (pr != RWC_OK)
		block_sites(b);
	return pr;
}

/* RWC_OK, RWC_HEAP_OVERFLOW or RWC_USE_AFTER_FREE (what holds the buffer
 * in B, the bad bytes [*BLO, *BHI)); in the fast path (FULL 0) also
 * HEAP_UNSURE.  Blocks are judged by the bytes the program asked for. */
static int heap(uintptr_t p, size_t n, struct rwc_bounds *b, uintptr_t *blo, uintptr_t *bhi, int full)
{
	uintptr_t live, freed = 0;
	size_t ls = 0, fs = 0;
	struct rwc_heap_block lb, fb;
	enum rwc_problem pr;

	b->kind = RWC_HOLDER_NONE;
	if (rwc_big_any() && !full && rwc_big_maybe(p))
		return HEAP_UNSURE; /* perhaps in a reserved freed large block */
	if (rwc_big_any() && full && (pr = rwc_big_verdict(p, n, b, blo, bhi)) != RWC_OK)
		return pr;
	if (rwc_hm_nothing_below(p))
		return run_into(p, n, b, blo, bhi, full);
	live = rwc_hm_prev(p, 0, 0);
	if (live && (ls = chunk_usable(live, full)) == UNKNOWN)
		return HEAP_UNSURE;
	if (!ls || p - live >= ls) {
		freed = rwc_hm_prev(p, 1, live);
		if (freed > live && (fs = freed_usable(freed, full)) == UNKNOWN)
			return HEAP_UNSURE;
	}
	block_at(&lb, live, ls);
	block_at(&fb, freed, fs);
	if (ls && !(rwc_chunk_word(live) & RWC_CHUNK_IS_MMAPPED))
		lb.header = sizeof(size_t); /* (its header was readable: ls) */
	pr = rwc_heap_verdict(p, n, &lb, &fb, b, blo, bhi);
	if (pr == RWC_OK && live && p - live < ls)
		hblock_note(live); /* the next call skips the search */
	if (pr == RWC_OK && b->kind == RWC_HOLDER_NONE)
		return run_into(p, n, b, blo, bhi, full);
	if (pr != RWC_OK)
		block_sites(b);
	return pr;
}

/* 1: nothing to check or a cached frame holds the range; 0: walk. */
static int stack_known(uintptr_t p, uintptr_t hi, uintptr_t sp0, uintptr_t pc)
{
	return !sp0 || p < sp0 || rwc_stack_cached(p, hi, sp0, pc);
}

int rwc_bounds_good(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc)
{
	unsigned on = rwc_bounds_on();
	struct rwc_bounds b; /* (not zeroed: 152 bytes a call, and only its kind is read here) */
	uintptr_t lo, hi;

	b.kind = RWC_HOLDER_NONE;
	if ((on & RWC_CHECK_STACK) && sp0 && p >= sp0 && rwc_stack_in_frame(p, range_end(p, n), sp0, pc))
		return 1; /* in a frame this thread walked */
	if ((on & RWC_CHECK_HEAP) && heap(p, n, &b, &lo, &hi, 0) != RWC_OK)
		return 0;
	if ((on & RWC_CHECK_STACK) && !stack_known(p, range_end(p, n), sp0, pc))
		return 0; /* (a stack may lie in a heap block: sigaltstack, coroutines) */
	return b.kind == RWC_HOLDER_BLOCK || !(on & RWC_CHECK_GLOBAL) || rwc_glob_good(p, n);
}

enum rwc_problem rwc_bounds_check(uintptr_t p, size_t n, uintptr_t sp0, uintptr_t pc,
				  struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	unsigned on = rwc_bounds_on();
	enum rwc_problem pr;
	int in_block;

	b->kind = RWC_HOLDER_NONE;
	if (n == 0)
		return RWC_OK;
	if ((on & RWC_CHECK_STACK) && sp0 && p >= sp0 && rwc_stack_in_frame(p, range_end(p, n), sp0, pc))
		return RWC_OK; /* in a frame this thread walked */
	if ((on & RWC_CHECK_HEAP) && (pr = heap(p, n, b, bad_lo, bad_hi, 1)) != RWC_OK)
		return pr;
	in_block = b->kind == RWC_HOLDER_BLOCK; /* not a global */
	if ((on & RWC_CHECK_STACK) && !stack_known(p, range_end(p, n), sp0, pc) &&
	    (pr = rwc_bounds_stack(p, n, sp0, pc, b, bad_lo, bad_hi)) != RWC_OK)
		return pr; /* (a stack may lie in a heap block: sigaltstack, coroutines) */
	if ((on & RWC_CHECK_GLOBAL) && !in_block)
		return rwc_glob_check(p, n, b, bad_lo, bad_hi);
	return RWC_OK;
}

extern void *__curbrk; /* glibc's program break (read only) */

/* The end of the executable's image (its last PT_LOAD), where the
 * kernel's program break starts after a random gap; UINTPTR_MAX not
 * known. */
static uintptr_t image_end(void)
{
	static uintptr_t end RWC_START_DATA; /* (its own .bss page: read, then written) */
	uintptr_t e = __atomic_load_n(&end, __ATOMIC_RELAXED), bias = UINTPTR_MAX;
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM);

	if (e)
		return e;
	for (size_t i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	e = bias == UINTPTR_MAX ? UINTPTR_MAX : 0;
	for (size_t i = 0; ph && i < n && bias != UINTPTR_MAX; i++)
		if (ph[i].p_type == PT_LOAD && bias + ph[i].p_vaddr + ph[i].p_memsz > e)
			e = bias + ph[i].p_vaddr + ph[i].p_memsz;
	__atomic_store_n(&end, e, __ATOMIC_RELAXED);
	return e;
}

int rwc_bounds_vouch(uintptr_t p, size_t n)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	uintptr_t floor, live, lo, hi;

	/* (the break first: a buffer above it, as on a stack, touches nothing) */
	if (rwc_vouch_off || !n || n > UINTPTR_MAX - p ||
	    p + n > (uintptr_t)__atomic_load_n(&__curbrk, __ATOMIC_RELAXED) || !(rwc_bounds_on() & RWC_CHECK_HEAP) ||
	    !rwc_map_light_left() || p < (floor = image_end()) || rwc_hm_nothing_below(p))
		return 0;
	hi = rwc_map_light_heap(); /* (first: a trim from now on moves the generation) */
	if (p + n > hi || !(live = rwc_hm_prev(p, 0, floor)) || live < floor + RWC_CHUNK_HDR)
		return 0;
	lo = (live - RWC_CHUNK_HDR) & ~(uintptr_t)4095; /* (the break's start is page-aligned) */
	if (rwc_cut_touches(lo, hi))
		return 0;
	rwc_map_light_spend();
	rwc_tcache_fill(g, lo, hi, RWC_NEED_READ | RWC_NEED_WRITE);
	rwc_map_light_filled(hi);
	return 1;
}

/* The module whose image holds P (dladdr's name for it), or NULL; lock-
 * free (_dl_find_object, glibc 2.35+). */
static const char *module_of(uintptr_t p)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE
	struct dl_find_object o;

	if (_dl_find_object((void *)p, &o) == 0 && o.dlfo_link_map)
		return *o.dlfo_link_map->l_name ? o.dlfo_link_map->l_name : program_invocation_name;
#else
	(void)p;
#endif
	return NULL;
}

/* ---- x86 and x86-64 only (TLS variant II): the static TLS block lies
 * just below the thread pointer; elsewhere (variant I) just above. */
#define TLS_REACH ((uintptr_t)64 << 10)

/* Is P in the calling thread's static TLS block (or near it)? */
static int in_static_tls(uintptr_t p)
{
	uintptr_t tp = (uintptr_t)__builtin_thread_pointer();

#if defined(__x86_64__) || defined(__i386__)
	return p < tp && tp - p <= TLS_REACH;
#else
	return p >= tp && p - tp < TLS_REACH;
#endif
}
/* ---- end of the architecture's part */

/* How far above the caller's sp a buffer is taken for its stack's. */
#define STACK_REACH ((uintptr_t)64 << 20)

enum rwc_problem rwc_bounds_compiler(uintptr_t p, size_t n, size_t objsize, uintptr_t sp0,
				     struct rwc_bounds *b, uintptr_t *bad_lo, uintptr_t *bad_hi)
{
	unsigned on = rwc_bounds_on();
	const char *mod;
	uintptr_t lo, hi;

	*bad_lo = range_end(p, objsize);
	*bad_hi = range_end(p, n);
	if ((on & RWC_CHECK_HEAP) && heap(p, 1, b, &lo, &hi, 1) == RWC_OK && b->kind == RWC_HOLDER_BLOCK) {
		block_sites(b);
		return RWC_HEAP_OVERFLOW;
	}
	*b = (struct rwc_bounds){.lo = p, .hi = *bad_lo, .limit = *bad_lo, .index = -1};
	if ((mod = module_of(p))) {
		b->kind = RWC_HOLDER_GLOBAL;
		b->module = mod;
		return on & RWC_CHECK_GLOBAL ? RWC_GLOBAL_OVERFLOW : RWC_OK;
	}
	if (sp0 && p >= sp0 && (rwc_stk_top ? p < rwc_stk_top : p - sp0 < STACK_REACH)) {
		b->kind = RWC_HOLDER_VARIABLE;
		return on & RWC_CHECK_STACK ? RWC_STACK_OVERFLOW : RWC_OK;
	}
	if (in_static_tls(p)) { /* a thread-local variable */
		b->kind = RWC_HOLDER_GLOBAL;
		b->module = "thread-local storage";
		return on & RWC_CHECK_GLOBAL ? RWC_GLOBAL_OVERFLOW : RWC_OK;
	}
	b->kind = RWC_HOLDER_BLOCK; /* memory of another allocator, or none known */
	return on & RWC_CHECK_HEAP ? RWC_HEAP_OVERFLOW : RWC_OK;
}
