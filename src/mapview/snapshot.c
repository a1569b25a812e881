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
#include "base/pagesize.h"
#include "base/perproc.h"
#include "base/log.h"
#include "mapview/maps_parse.h"
#include "mapview/heaptop.h"
#include "base/ownmem.h"
#include "mapview/mapsfile.h"
#include "mapview/overlay.h"
#include "mapview/pagemap.h"
#include "base/real.h"

#include "mapview/snapdata.h"

uint64_t rwc_gen = 1;

_Static_assert(2 * sizeof(struct snap) + RWC_SNAP_SCAN_BUF <= RWC_OWN_SNAP_SIZE, "ownmem.h: RWC_OWN_SNAP_SIZE");
int rwc_snap_cur = -1;   /* published snapshot, -1 none */
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
	rwc_pagemap_init(&s->pm, s->pm_mem, PM_WORDS, (unsigned)__builtin_ctzl(rwc_page_size()));
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

/* Re-reads the map into the unpublished buffer and publishes it.  0 if it
 * could not (lock busy, no buffers, no /proc). */
static int refresh(void)
{
	uintptr_t brk_end;
	struct snap *s;
	int fd, rc;

	if (rwc_ownmem_get() <= 0 || !lock())
		return 0;
	s = snap_at(__atomic_load_n(&rwc_snap_cur, __ATOMIC_ACQUIRE) == 0 ? 1 : 0);
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
	rc = rwc_maps_scan(fd, rwc_read_real, (char *)rwc_ownmem_part(RWC_OWN_SNAP), RWC_SNAP_SCAN_BUF, snap_add, s, NULL);
	if (!s->heap_hi) /* no heap yet: it will start at the break */
		s->heap_hi = brk_end;
	if (rc < 0)
		s->complete = 0;
	build_index(s);
	build_pagemap(s);
	close(fd);
	write_seq(s);
	__atomic_store_n(&rwc_snap_cur, s == snap_at(0) ? 0 : 1, __ATOMIC_RELEASE);
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
	i = __atomic_load_n(&rwc_snap_cur, __ATOMIC_ACQUIRE);
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
	int i = __atomic_load_n(&rwc_snap_cur, __ATOMIC_ACQUIRE);
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
		k = rwc_snap_find(s, n, ntop, lo);
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
		for (size_t k = rwc_snap_find(s, n, ntop, lo); k < n && !v->done; k++) {
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
		int i = __atomic_load_n(&rwc_snap_cur, __ATOMIC_ACQUIRE), r;

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
