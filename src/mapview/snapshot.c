/* snapshot.c: the cached map view (see snapshot.h).
 *
 * Two snapshot buffers, each guarded by a sequence counter (odd while it
 * is written); the published one is read without locks and re-validated.
 * rwc_gen counts changes: a snapshot is current while its gen equals
 * rwc_gen.  A change the library knows exactly (rwc_snap_set) is appended
 * to the current snapshot's overlay and the snapshot moves to the new
 * generation; any other change (rwc_map_changed) only bumps rwc_gen, and
 * the next check re-reads /proc/self/maps.  The writer lock is a try-lock:
 * whoever cannot take it (another thread writing, or this thread's own
 * write interrupted by a signal handler) never waits. */
#include "config.h"

#include "mapview/snapshot.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapview/tcache.h"
#include "base/perproc.h"
#include "base/log.h"
#include "mapview/maps_parse.h"
#include "mapview/heaptop.h"
#include "base/ownmem.h"
#include "mapview/mapsfile.h"
#include "mapview/overlay.h"
#include "mapview/pagemap.h"
#include "base/real.h"

#define SNAP_CAP 131072u /* regions; vm.max_map_count defaults to 65530 */
#define BLOCK 4u /* regions per block of the two-level index: one cache line */
#define PROT_MASK 0xfffu /* a start is page-aligned: its low bits hold RWC_PROT_* */
#define PM_WORDS (1u << 20) /* the page map's memory: 8 MiB, touched as used */
#define NAMED_CAP 4096u /* named regions indexed (more: no unnamed runs) */

struct snap {
	unsigned seq;       /* odd while being written */
	uint64_t gen;       /* the generation it holds for */
	size_t n;
	int complete;       /* 0: more regions than SNAP_CAP, or a read error */
	                    /* (a full overlay sets gen to 0: stale) */
	unsigned novl;
	uintptr_t heap_hi;  /* where [heap] ends, overlay included; 0: none */
	struct rwc_pagemap pm; /* by page (pagemap.h); here, on the page every lookup reads */
	struct rwc_ovl ovl[RWC_OVL_CAP]; /* newest last (overlay.h) */
	size_t ntop;
	unsigned nnamed;    /* named[0..nnamed): the indexes of the regions with */
	int named_ok;       /* a name (a file, [heap], [vdso]...); 0: too many */
	uint32_t named[NAMED_CAP];
	uintptr_t top[SNAP_CAP / BLOCK]; /* the last end of each block of ent[] */
	struct {
		uintptr_t end;
		uintptr_t sp;                 /* start | prot */
	} ent[SNAP_CAP] __attribute__((aligned(64))); /* region i: [sp & ~PROT_MASK, end) */
	uint64_t pm_mem[PM_WORDS];
};

uint64_t rwc_gen = 1;

#define SCAN_BUF 65536
/* The scan buffer (under the writer lock), then two snapshots, in the
 * library's own memory (the buffer near what a start touches, ownmem.c). */
_Static_assert(2 * sizeof(struct snap) + SCAN_BUF <= RWC_OWN_SNAP_SIZE, "ownmem.h: RWC_OWN_SNAP_SIZE");
static inline struct snap *snap_at(int i)
{
	return (struct snap *)((char *)rwc_ownmem_part(RWC_OWN_SNAP) + SCAN_BUF) + i;
}
static int cur = -1;   /* published snapshot, -1 none */
static uintptr_t hidden_lo, hidden_hi;

void rwc_map_changed(void)
{
	__atomic_add_fetch(&rwc_gen, 1, __ATOMIC_RELEASE);
}

void rwc_map_hide(uintptr_t lo, uintptr_t hi)
{
	__atomic_store_n(&hidden_lo, lo, __ATOMIC_RELEASE);
	__atomic_store_n(&hidden_hi, hi, __ATOMIC_RELEASE);
}

int rwc_snap_hidden(uintptr_t start, uintptr_t end, unsigned prot)
{
	return (prot & (RWC_PROT_R | RWC_PROT_W | RWC_PROT_X | RWC_PROT_SHARED)) == RWC_PROT_SHARED &&
	       start == __atomic_load_n(&hidden_lo, __ATOMIC_ACQUIRE) &&
	       end == __atomic_load_n(&hidden_hi, __ATOMIC_ACQUIRE) && start != end;
}

static int lock(void)
{
	return !__atomic_exchange_n(&rwc_perproc->snap_writer, 1, __ATOMIC_ACQUIRE);
}

static void unlock(void)
{
	__atomic_store_n(&rwc_perproc->snap_writer, 0, __ATOMIC_RELEASE);
}

/* Before and after a write of S (odd while written): the count ordered
 * before and after the writes it frames. */
static void write_seq(struct snap *s)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static int snap_add(const struct rwc_map_entry *e, void *arg)
{
	struct snap *s = arg;

	if (rwc_snap_hidden(e->start, e->end, e->prot))
		return 0;
	if (s->n >= SNAP_CAP) {
		s->complete = 0;
		return 1;
	}
	if (e->path_len == 6 && !memcmp(e->path, "[heap]", 6))
		s->heap_hi = e->end;
	if (e->path_len && s->nnamed < NAMED_CAP)
		s->named[s->nnamed++] = (uint32_t)s->n;
	else if (e->path_len)
		s->named_ok = 0;
	s->ent[s->n].sp = (e->start & ~(uintptr_t)PROT_MASK) | e->prot;
	s->ent[s->n].end = e->end;
	s->n++;
	return 0;
}

size_t rwc_snap_pm_min = 256; /* snapshot.h */

static void build_pagemap(struct snap *s)
{
	if (s->n < __atomic_load_n(&rwc_snap_pm_min, __ATOMIC_RELAXED))
		return (void)__atomic_store_n(&s->pm.ok, 0, __ATOMIC_RELAXED);
	rwc_pagemap_init(&s->pm, s->pm_mem, PM_WORDS, (unsigned)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE)));
	for (size_t k = 0; k < s->n && s->pm.ok; k++)
		rwc_pagemap_set(&s->pm, s->ent[k].sp & ~(uintptr_t)PROT_MASK, s->ent[k].end,
				rwc_prot_needs((unsigned)(s->ent[k].sp & PROT_MASK)));
}

static void build_index(struct snap *s)
{
	s->ntop = (s->n + BLOCK - 1) / BLOCK;
	for (size_t j = 0; j < s->ntop; j++) {
		size_t last = j * BLOCK + BLOCK - 1;
		s->top[j] = s->ent[last < s->n ? last : s->n - 1].end;
	}
}

/* First index i < n with a[i] > x, or n.  Branch-free: random lookups
 * would mispredict every step of a branching search. */
static size_t first_greater(const uintptr_t *a, size_t n, uintptr_t x)
{
	const uintptr_t *base = a;
	size_t len = n;

	if (n == 0)
		return 0;
	while (len > 1) {
		size_t half = len / 2;
		base += (size_t)(base[half - 1] <= x) * half;
		len -= half;
	}
	return (size_t)(base - a) + (*base <= x);
}

/* Index of the first region whose end is above LO (N if none): a search
 * of the top level, then a scan of one cache line of entries. */
static size_t find(const struct snap *s, size_t n, size_t ntop, uintptr_t lo)
{
	size_t j = first_greater(s->top, ntop, lo), k, e;

	if (j >= ntop)
		return n;
	k = j * BLOCK;
	e = k + BLOCK < n ? k + BLOCK : n;
	while (k < e && s->ent[k].end <= lo)
		k++;
	return k;
}

/* Re-reads the map into the unpublished buffer and publishes it.  0 if it
 * could not (lock busy, no buffers, no /proc). */
static int refresh(void)
{
	uintptr_t brk_end;
	struct snap *s;
	int fd, rc;

	if (rwc_ownmem_get() <= 0 || !lock())
		return 0;
	s = snap_at(__atomic_load_n(&cur, __ATOMIC_ACQUIRE) == 0 ? 1 : 0);
	fd = rwc_map_open();
	if (fd < 0) {
		unlock();
		return 0;
	}
	write_seq(s);
	s->gen = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	s->n = 0;
	s->novl = 0;
	s->heap_hi = 0;
	s->complete = 1;
	s->nnamed = 0;
	s->named_ok = 1;
	brk_end = rwc_heap_end_refreshed();
	rc = rwc_maps_scan(fd, rwc_read_real, (char *)rwc_ownmem_part(RWC_OWN_SNAP), SCAN_BUF, snap_add, s, NULL);
	if (!s->heap_hi) /* no heap yet: it will start at the break */
		s->heap_hi = brk_end;
	if (rc < 0)
		s->complete = 0;
	build_index(s);
	build_pagemap(s);
	close(fd);
	write_seq(s);
	__atomic_store_n(&cur, s == snap_at(0) ? 0 : 1, __ATOMIC_RELEASE);
	unlock();
	return 1;
}

/* rwc_snap_set, or with HEAP the heap's growth to the program break. */
static void place(uintptr_t lo, uintptr_t hi, int prot, int heap)
{
	struct snap *s;
	int i;

	if ((!heap && hi <= lo) || !rwc_ownmem_ready() || !lock()) { /* (no memory: no snapshot either) */
		rwc_map_changed();
		return;
	}
	i = __atomic_load_n(&cur, __ATOMIC_ACQUIRE);
	s = i < 0 ? NULL : snap_at(i);
	prot = heap ? (int)(RWC_PROT_R | RWC_PROT_W) : prot;
	if (heap && s && (lo = s->heap_hi) == (hi = rwc_heap_end_taken())) {
		unlock(); /* the heap ends where the view knows it does */
		return;
	}
	/* stale anyway, a trim, a growth over the overlay's news: re-read */
	if (!s || s->gen != __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE) ||
	    (heap && (!lo || hi < lo || rwc_ovl_overlaps(s->ovl, 0, s->novl, lo, hi)))) {
		unlock();
		rwc_map_changed();
		return;
	}
	write_seq(s);
	if (!rwc_ovl_place(s->ovl, &s->novl, lo, hi, prot)) { /* full: re-read the map at the next check */
		s->gen = 0;
		write_seq(s);
		unlock();
		rwc_map_changed();
		return;
	}
	if (heap)
		s->heap_hi = hi;
	s->gen = __atomic_add_fetch(&rwc_gen, 1, __ATOMIC_ACQ_REL);
	write_seq(s);
	unlock();
}

void rwc_snap_set(uintptr_t lo, uintptr_t hi, int prot)
{
	place(lo, hi, prot, 0);
}

void rwc_snap_heap_top(void)
{
	place(0, 0, 0, 1);
}

int rwc_snap_lookup(uintptr_t lo, size_t len, unsigned need)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	int i = __atomic_load_n(&cur, __ATOMIC_ACQUIRE);
	uintptr_t hi = lo + len, run_lo, end;
	const struct snap *s;
	unsigned seq, novl, prot, ok; /* ok: the needs the range is known good for */
	size_t n, ntop, k;

	if (i < 0 || hi < lo)
		return -1;
	s = snap_at(i);
	seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	if ((seq & 1) || __atomic_load_n(&s->gen, __ATOMIC_RELAXED) != g ||
	    !__atomic_load_n(&s->complete, __ATOMIC_RELAXED))
		return -1;
	n = __atomic_load_n(&s->n, __ATOMIC_RELAXED);
	ntop = __atomic_load_n(&s->ntop, __ATOMIC_RELAXED);
	novl = __atomic_load_n(&s->novl, __ATOMIC_RELAXED);
	if (n > SNAP_CAP || ntop > SNAP_CAP / BLOCK || novl > RWC_OVL_CAP)
		return -1;
	if (__atomic_load_n(&s->pm.ok, __ATOMIC_RELAXED)) {
		/* flat in the number of mappings: a few loads in the page map */
		if (rwc_ovl_overlaps(s->ovl, 0, novl, lo, hi))
			return -1;
		if (!rwc_pagemap_good(&s->pm, lo, hi, need, &run_lo, &end))
			goto not_good;
		ok = need;
	} else {
		k = find(s, n, ntop, lo);
		if (k >= n || (s->ent[k].sp & ~(uintptr_t)PROT_MASK) > lo)
			goto not_good;
		run_lo = s->ent[k].sp & ~(uintptr_t)PROT_MASK;
		prot = (unsigned)(s->ent[k].sp & PROT_MASK);
		end = s->ent[k].end;
		while (end < hi) { /* contiguous regions */
			if (++k >= n || (s->ent[k].sp & ~(uintptr_t)PROT_MASK) != end)
				goto not_good;
			prot &= (unsigned)(s->ent[k].sp & PROT_MASK);
			end = s->ent[k].end;
		}
		ok = rwc_prot_needs(prot);
		if ((ok & need) != need)
			goto not_good;
	}
	if (rwc_ovl_overlaps(s->ovl, 0, novl, run_lo, end)) {
		if (rwc_ovl_overlaps(s->ovl, 0, novl, lo, hi))
			return -1; /* the full path weighs the overlay */
		run_lo = lo, end = hi;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq)
		return -1;
	rwc_tcache_fill(g, run_lo, end, ok);
	return 1;
not_good: /* the regions' say, unless an overlay entry has one */
	if (rwc_ovl_overlaps(s->ovl, 0, novl, lo, hi))
		return -1;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq ? 0 : -1;
}

int rwc_snap_unnamed_run(uint64_t g, uintptr_t a, uintptr_t *lo, uintptr_t *hi)
{
	int i = __atomic_load_n(&cur, __ATOMIC_ACQUIRE);
	const struct snap *s;
	unsigned seq, nn, j, len;
	size_t n, ntop, k;

	if (i < 0)
		return 0;
	s = snap_at(i);
	seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	if ((seq & 1) || __atomic_load_n(&s->gen, __ATOMIC_RELAXED) != g ||
	    !__atomic_load_n(&s->complete, __ATOMIC_RELAXED) || !__atomic_load_n(&s->named_ok, __ATOMIC_RELAXED))
		return 0;
	n = __atomic_load_n(&s->n, __ATOMIC_RELAXED);
	ntop = __atomic_load_n(&s->ntop, __ATOMIC_RELAXED);
	nn = __atomic_load_n(&s->nnamed, __ATOMIC_RELAXED);
	if (n > SNAP_CAP || ntop > SNAP_CAP / BLOCK || nn > NAMED_CAP)
		return 0;
	k = find(s, n, ntop, a); /* the first region that ends above A */
	for (j = 0, len = nn; len > 0;) { /* the first named region from k on */
		unsigned half = len / 2;

		if (s->named[j + half] < k)
			j += half + 1, len -= half + 1;
		else
			len = half;
	}
	if (j < nn && s->named[j] == k && (s->ent[k].sp & ~(uintptr_t)PROT_MASK) <= a)
		return 0; /* in a named region */
	*lo = j > 0 && s->named[j - 1] < n ? s->ent[s->named[j - 1]].end : 0;
	*hi = j < nn && s->named[j] < n ? s->ent[s->named[j]].sp & ~(uintptr_t)PROT_MASK : UINTPTR_MAX;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq && *lo <= a && a < *hi;
}

/* One try at the verdict from snapshot S, published for generation G:
 * 1 decided (V), 0 try again (S was being written), -1 the overlay needs
 * the map re-read. */
static int verdict_from(const struct snap *s, uint64_t g, struct rwc_verdict *v, uintptr_t lo, size_t len,
			unsigned need)
{
	unsigned seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), novl, by = 0;
	size_t n = __atomic_load_n(&s->n, __ATOMIC_RELAXED), ntop = __atomic_load_n(&s->ntop, __ATOMIC_RELAXED);
	uintptr_t clo = 0, chi = 0;
	int o;

	novl = __atomic_load_n(&s->novl, __ATOMIC_RELAXED);
	if ((seq & 1) || n > SNAP_CAP || novl > RWC_OVL_CAP || ntop > SNAP_CAP / BLOCK)
		return 0;
	rwc_verdict_init(v, lo, len, need);
	o = rwc_ovl_verdict(s->ovl, novl, v, &by);
	if (o == 0) {
		for (size_t k = find(s, n, ntop, lo); k < n && !v->done; k++) {
			struct rwc_region r = {s->ent[k].sp & ~(uintptr_t)PROT_MASK, s->ent[k].end,
					       (unsigned)(s->ent[k].sp & PROT_MASK)};
			rwc_verdict_feed(v, &r, NULL);
		}
		rwc_verdict_finish(v);
		if (v->problem == RWC_OK && v->prev.valid && v->run_lo <= lo) {
			/* cache the contiguous regions that hold it, or just
			 * the range where the overlay covers part of them */
			clo = v->run_lo;
			chi = v->prev.end;
			if (rwc_ovl_overlaps(s->ovl, 0, novl, clo, chi))
				clo = v->lo, chi = v->hi;
		}
	} else if (o > 0 && v->problem == RWC_OK) {
		/* the entry that decided, less what newer ones changed in
		 * it (an munmap of its upper half, say): then just the
		 * range, which none of them touches */
		clo = v->prev.start;
		chi = v->prev.end;
		if (rwc_ovl_overlaps(s->ovl, by + 1, novl, clo, chi))
			clo = v->lo, chi = v->hi;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq)
		return 0;
	if (o < 0)
		return -1;
	if (v->problem == RWC_OK && chi > clo)
		rwc_tcache_fill(g, clo, chi, rwc_prot_needs(v->run_prot));
	return 1;
}

int rwc_snap_verdict(struct rwc_verdict *v, uintptr_t lo, size_t len, unsigned need)
{
	for (int tries = 0; tries < 4; tries++) {
		uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
		int i = __atomic_load_n(&cur, __ATOMIC_ACQUIRE), r;

		if (i < 0 || __atomic_load_n(&snap_at(i)->gen, __ATOMIC_ACQUIRE) != g) {
			if (!refresh())
				return -1;
			continue;
		}
		if (!__atomic_load_n(&snap_at(i)->complete, __ATOMIC_ACQUIRE))
			return -1; /* too many mappings, or /proc failed: ask the kernel */
		r = verdict_from(snap_at(i), g, v, lo, len, need);
		if (r > 0)
			return v->problem;
		if (r < 0 && !refresh())
			return -1;
	}
	return -1;
}
