/* mapview.c: range verdicts (see mapview.h).  A good verdict may come
 * from the cached view (snapshot.c); a bad one is always confirmed against
 * the kernel — ioctl(PROCMAP_QUERY) on Linux 6.11+, else a fresh parse of
 * /proc/self/maps that also describes the mappings around the bad bytes —
 * because memory mapped behind the library's back (malloc's and the
 * loader's own mmaps, thread stacks, raw system calls) makes a good call
 * look bad to the cache.  A cache that proved wrong is marked stale.
 * Signal-safe; no allocation. */
#include "config.h"

#include "mapview/mapview.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/common.h"
#include "mapview/tcache.h"
#include "base/log.h"
#include "mapview/maps_parse.h"
#include "base/real.h"
#include "mapview/mapsfile.h"
#include "mapview/heaptop.h"
#include "mapview/snapshot.h"
#include "mapview/vouch.h"

/* ---- ioctl(PROCMAP_QUERY), Linux 6.11+; defined here when the installed
 * headers predate it. */
#ifndef PROCMAP_QUERY
struct procmap_query {
	uint64_t size;
	uint64_t query_flags;
	uint64_t query_addr;
	uint64_t vma_start;
	uint64_t vma_end;
	uint64_t vma_flags;
	uint64_t vma_page_size;
	uint64_t vma_offset;
	uint64_t inode;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint32_t vma_name_size;
	uint32_t build_id_size;
	uint64_t vma_name_addr;
	uint64_t build_id_addr;
};
#define PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define PROCMAP_QUERY_VMA_READABLE 0x01
#define PROCMAP_QUERY_VMA_WRITABLE 0x02
#define PROCMAP_QUERY_VMA_EXECUTABLE 0x04
#define PROCMAP_QUERY_VMA_SHARED 0x08
#define PROCMAP_QUERY_COVERING_OR_NEXT_VMA 0x10
#endif

static int procmap_query_off RWC_START_DATA; /* 1: kernel lacks it, or disabled */

void rwc_map_disable_procmap_query(void)
{
	procmap_query_off = 1;
	rwc_vouch_off = 1;
}

/* ---- asking the kernel ---------------------------------------------- */

/* The RWC_PROT_* of the mapping Q found. */
static unsigned query_prot(const struct procmap_query *q)
{
	return ((q->vma_flags & PROCMAP_QUERY_VMA_READABLE) ? RWC_PROT_R : 0) |
	       ((q->vma_flags & PROCMAP_QUERY_VMA_WRITABLE) ? RWC_PROT_W : 0) |
	       ((q->vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE) ? RWC_PROT_X : 0) |
	       ((q->vma_flags & PROCMAP_QUERY_VMA_SHARED) ? RWC_PROT_SHARED : 0);
}

/* Verdict by ioctl(PROCMAP_QUERY): 0 done, -1 unsupported or failed. */
static int query_verdict(int fd, struct rwc_verdict *v)
{
	uintptr_t addr = v->lo;

	while (!v->done) {
		struct procmap_query q;
		struct rwc_region r;

		memset(&q, 0, sizeof q);
		q.size = sizeof q;
		q.query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA;
		q.query_addr = addr;
		if (ioctl(fd, PROCMAP_QUERY, &q) < 0) {
			if (errno == ENOENT)
				break;
			if (errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP)
				procmap_query_off = 1;
			return -1;
		}
		r.start = (uintptr_t)q.vma_start;
		r.end = (uintptr_t)q.vma_end;
		r.prot = query_prot(&q);
		if (r.end <= addr)
			return -1;
		if (!rwc_snap_hidden(r.start, r.end, r.prot))
			rwc_verdict_feed(v, &r, NULL);
		addr = r.end;
	}
	rwc_verdict_finish(v);
	return 0;
}

/* ---- a process's first checks ----------------------------------------
 * Where no current snapshot says (none made yet, or a stale one), the
 * first few verdicts ask the kernel for the mapping that holds the range,
 * or the few in a row that do (a few us: no map text made or parsed, none
 * of the library's memory mapped), and the thread's cache keeps them: a
 * process that makes a few checks never reads its whole map.  Past the
 * budget, or for anything but a run of up to 4 good mappings, the
 * snapshot.  A verdict vouched for (vouch.h, bounds.h rwc_bounds_vouch)
 * spends the budget too: past it, a thread whose four cached ranges do
 * not hold its buffers asks the snapshot inline, not the slow path. */
#define LIGHT_BUDGET 16
/* The program break when the light path last filled a thread's cache; 0
 * never: before the first need, the frees tell nothing else (mapwatch.c) */
static uintptr_t light_brk RWC_START_DATA;
static uintptr_t light_fills RWC_START_DATA; /* fills so far: rwc_map_light_heap's tokens */
extern void *__curbrk; /* glibc's program break (read only) */

static uintptr_t program_break(void)
{
	uintptr_t b = (uintptr_t)__atomic_load_n(&__curbrk, __ATOMIC_RELAXED);

	return b ? b : 1;
}

void rwc_map_light_freed(int unmapped)
{
	uintptr_t b = __atomic_load_n(&light_brk, __ATOMIC_ACQUIRE);

	if (b && (unmapped || program_break() != b)) {
		__atomic_store_n(&light_brk, program_break(), __ATOMIC_RELEASE);
		rwc_map_changed();
	}
}
/* Before a fill of a thread's cache that may hold the heap up to the
 * break: from now on a free that moves the break or unmaps moves the
 * generation (rwc_map_light_freed, from mapwatch.c's slow path, where
 * the view's own record of the break no longer lets a free skip it).
 * Returns the break stored. */
uintptr_t rwc_map_light_heap(void)
{
	uintptr_t b = program_break();
	void *q = __atomic_load_n(&rwc_brk_quiet, __ATOMIC_ACQUIRE);
	/* a value no break can be (kernel space) and no free read before: a
	 * free's compare-and-swap from what it read fails after this fill */
	void *t = (void *)(UINTPTR_MAX - 2 * __atomic_add_fetch(&light_fills, 1, __ATOMIC_RELAXED));

	__atomic_store_n(&light_brk, b, __ATOMIC_RELEASE);
	__atomic_store_n(&rwc_brk_seen, NULL, __ATOMIC_RELEASE);
	while (q != RWC_BRK_VIEW && /* (no free skips the slow path from now on) */
	       !__atomic_compare_exchange_n(&rwc_brk_quiet, &q, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	return b;
}

/* After that fill: a break that moved in between (another thread's
 * malloc or free) may lie inside what was filled: empty every cache. */
void rwc_map_light_filled(uintptr_t b)
{
	if (program_break() != b)
		rwc_map_changed();
}

static unsigned light_used RWC_START_DATA; /* (in .data: no page fault of its own) */

int rwc_map_light_left(void)
{
	return __atomic_load_n(&light_used, __ATOMIC_RELAXED) < LIGHT_BUDGET;
}

void rwc_map_light_spend(void)
{
	__atomic_add_fetch(&light_used, 1, __ATOMIC_RELAXED);
}
/* In a check (rwc_map_session_begin), its queries' one descriptor + 2;
 * 1 none yet; 0 outside a check (each query opens its own). */
static __thread int light_fd __attribute__((tls_model("initial-exec"))); /* (fd + 2: no .tdata) */

void rwc_map_session_begin(void)
{
	light_fd = 1;
}

/* (A signal handler's malloc may ask in the middle of either: the
 * descriptor is taken and kept by one atomic step, never lost.) */
void rwc_map_session_end(void)
{
	int fd = __atomic_exchange_n(&light_fd, 0, __ATOMIC_RELAXED) - 2;

	if (fd >= 0)
		close(fd);
}

/* A descriptor for a query: the check's, opened at its first; else one
 * of its own, closed by light_close. */
static int light_open(void)
{
	int cur = __atomic_load_n(&light_fd, __ATOMIC_RELAXED), fd;

	if (cur >= 2)
		return cur - 2;
	fd = rwc_map_open();
	if (cur == 1 && fd >= 0)
		__atomic_compare_exchange_n(&light_fd, &cur, fd + 2, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return fd;
}

static void light_close(int fd)
{
	if (fd != __atomic_load_n(&light_fd, __ATOMIC_RELAXED) - 2)
		close(fd);
}

/* RWC_OK decided (V), or -1: the snapshot's way.  (Not inlined: its
 * query on the stack only while it runs.) */
static __attribute__((noinline)) int light_verdict(uintptr_t lo, size_t len, unsigned need, struct rwc_verdict *v)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	uintptr_t run_lo = 0, at = lo, b;
	unsigned ok = RWC_NEED_READ | RWC_NEED_WRITE;
	int fd, r = 0, e = 0;

	if (procmap_query_off || len > UINTPTR_MAX - lo || !rwc_map_light_left())
		return -1;
	rwc_map_light_spend();
	/* (before the query: a free that trims the heap from now on moves the
	 * generation, rwc_map_light_freed, and so empties the fill below) */
	b = rwc_map_light_heap();
	fd = light_open();
	if (fd < 0)
		return -1;
	/* the mappings that hold it, one after another (a global's buffer
	 * may run from the data segment's file pages into its bss) */
	for (int k = 0; k < 4 && (k == 0 || at < lo + len); k++) {
		struct procmap_query q;
		unsigned prot;

		memset(&q, 0, sizeof q);
		q.size = sizeof q;
		q.query_addr = at; /* (flags 0: the mapping that holds it, else ENOENT) */
		if ((r = ioctl(fd, PROCMAP_QUERY, &q)) < 0 || q.vma_start > at) {
			e = r < 0 ? errno : 0;
			break;
		}
		prot = query_prot(&q);
		if (rwc_snap_hidden((uintptr_t)q.vma_start, (uintptr_t)q.vma_end, prot)) {
			r = -1;
			break;
		}
		ok &= rwc_prot_needs(prot);
		run_lo = k ? run_lo : (uintptr_t)q.vma_start;
		at = (uintptr_t)q.vma_end;
	}
	light_close(fd);
	if (e == ENOTTY || e == EINVAL || e == EOPNOTSUPP)
		procmap_query_off = 1;
	if (r < 0 || at < lo + len || (ok & need) != need)
		return -1;
	rwc_tcache_fill(g, run_lo, at, ok);
	rwc_map_light_filled(b);
	rwc_verdict_init(v, lo, 0, need);
	return RWC_OK;
}

static int feed_entry(const struct rwc_map_entry *e, void *arg)
{
	struct rwc_verdict *v = arg;
	struct rwc_region r = {e->start, e->end, e->prot};
	struct rwc_region_info info = {e->offset, e->path, e->path_len};

	if (rwc_snap_hidden(e->start, e->end, e->prot))
		return 0;
	return rwc_verdict_feed(v, &r, &info);
}

/* Authoritative verdict with descriptions, from a fresh parse.  (Not
 * inlined: its buffer is on the stack only on this rare way, which a
 * signal handler's small stack also takes.) */
static __attribute__((noinline)) int parse_verdict(int fd, struct rwc_verdict *v)
{
	char buf[1024]; /* (a longer line's path is cut short; a handler's stack may be small) */

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	if (rwc_maps_scan(fd, rwc_read_real, buf, sizeof buf, feed_entry, v, NULL) < 0)
		return -1;
	rwc_verdict_finish(v);
	return 0;
}

enum rwc_problem rwc_map_verdict(uintptr_t lo, size_t len, unsigned need, struct rwc_verdict *v)
{
	return rwc_map_verdict_from(lo, len, need, -1, v);
}

enum rwc_problem rwc_map_verdict_from(uintptr_t lo, size_t len, unsigned need, int known, struct rwc_verdict *v)
{
	int fd, rc;

	if (known > 0 || (known < 0 && rwc_fast_range((const void *)lo, len, need))) {
		rwc_verdict_init(v, lo, 0, need);
		return RWC_OK;
	}
	rc = rwc_snap_lookup(lo, len, need); /* (-1: no snapshot, or a stale one) */
	if (rc > 0 || (rc < 0 && rwc_map_light_left() && rwc_vouch(lo, len, need))) {
		if (rc < 0)
			rwc_map_light_spend();
		rwc_verdict_init(v, lo, 0, need);
		return RWC_OK;
	}
	if (rc < 0 && light_verdict(lo, len, need, v) == RWC_OK)
		return RWC_OK;
	rc = rwc_snap_verdict(v, lo, len, need);
	if (rc == RWC_OK)
		return RWC_OK;
	fd = rwc_map_open();
	if (fd < 0)
		goto pass;
	if (!procmap_query_off) {
		rwc_verdict_init(v, lo, len, need);
		if (query_verdict(fd, v) == 0 && v->problem == RWC_OK) {
			close(fd);
			if (rc > 0)
				rwc_map_changed(); /* the snapshot was wrong */
			return RWC_OK;
		}
	}
	rwc_verdict_init(v, lo, len, need);
	rc = parse_verdict(fd, v);
	close(fd);
	if (rc < 0)
		goto pass;
	if (v->problem == RWC_OK)
		rwc_map_changed();
	return v->problem;
pass:
	rwc_verdict_init(v, lo, 0, need);
	v->blind = 1;
	return RWC_OK;
}
