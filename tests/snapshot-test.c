/* snapshot-test.c: the map view's snapshot and overlay alone (TAP), fed
 * synthetic maps: rwc_map_open (stubbed here) hands snapshot.c a memfd
 * holding the maps text the test wrote, and counts the reads; the
 * library's own memory and per-process state are plain memory here. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/checks.h"
#include "base/ownmem.h"
#include "base/perproc.h"
#include "base/real.h"
#include "mapview/heaptop.h"
#include "mapview/mapnews.h"
#include "mapview/mapsfile.h"
#include "mapview/overlay.h"
#include "mapview/snapshot.h"
#include "mapview/tcache.h"
#include "tap.h"

/* ---- what snapshot.c needs of the rest of the library ---------------- */
void *rwc_own_parts[RWC_OWN_NPARTS];
static struct rwc_perproc pp;
struct rwc_perproc *rwc_perproc = &pp;
static const char *maps_text;
static int opens;

int rwc_ownmem_get(void)
{
	return 1;
}

int rwc_ownmem_ready(void)
{
	return 1;
}

void *rwc_real_ptr[RWC_REAL_COUNT];
void *rwc_real_bind(unsigned idx)
{
	return idx == RWC_IDX_syscall ? (void *)&syscall : NULL; /* (the program break, before glibc knows it) */
}

ssize_t rwc_read_real(int fd, void *buf, size_t n)
{
	return read(fd, buf, n);
}

int rwc_map_open(void)
{
	int fd = memfd_create("maps", MFD_CLOEXEC);

	opens++;
	if (fd < 0 || write(fd, maps_text, strlen(maps_text)) != (ssize_t)strlen(maps_text) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

/* ---- the tests ---------------------------------------------------------- */
#define A 0x7f0000000000ul /* far from anything real: the maps are made up */
#define PG 4096ul

static enum rwc_problem verdict(uintptr_t lo, size_t n, unsigned need, struct rwc_verdict *v)
{
	return (enum rwc_problem)rwc_snap_verdict(v, lo, n, need);
}

static void snapshot_alone(void)
{
	struct rwc_verdict v;

	maps_text = "7f0000000000-7f0000004000 rw-p 00000000 00:00 0\n"
		    "7f0000004000-7f0000008000 r--p 00000000 08:01 42   /lib/x.so\n"
		    "7f000000a000-7f000000c000 rw-s 00000000 00:05 7    /dev/shm/y\n";
	ok(verdict(A, 100, RWC_NEED_WRITE, &v) == RWC_OK && opens == 1, "rw- region: good for writing (one read of the maps)");
	ok(verdict(A + 3 * PG, 2 * PG, RWC_NEED_READ, &v) == RWC_OK, "two adjacent regions: good for reading");
	ok(verdict(A + 3 * PG, 2 * PG, RWC_NEED_WRITE, &v) == RWC_BUF_NOT_WRITABLE &&
		   v.bad_lo == A + 4 * PG && v.bad_hi == A + 5 * PG,
	   "the r-- part: not writable, exactly its bytes (%lx-%lx)", (unsigned long)v.bad_lo, (unsigned long)v.bad_hi);
	ok(verdict(A + 8 * PG, 1, RWC_NEED_READ, &v) == RWC_BUF_UNMAPPED && v.bad_lo == A + 8 * PG &&
		   v.bad_hi == A + 8 * PG + 1,
	   "a gap: unmapped");
	ok(verdict(A + 7 * PG, 2 * PG, RWC_NEED_READ, &v) == RWC_BUF_UNMAPPED && v.bad_lo == A + 8 * PG,
	   "across the end of a region into the gap: unmapped from the gap on");
	ok(verdict(A + 10 * PG, PG, RWC_NEED_WRITE, &v) == RWC_OK, "a shared rw region: good");
	ok(opens == 1, "all from one snapshot (reads: %d)", opens);
}

static void overlay(void)
{
	struct rwc_verdict v;
	int before = opens;

	rwc_watch_mmap((void *)(A + 8 * PG), 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	ok(verdict(A + 8 * PG, 2 * PG, RWC_NEED_WRITE, &v) == RWC_OK, "an mmap the view was told of fills the gap");
	rwc_watch_munmap((void *)(A + PG), PG, 0);
	ok(verdict(A + PG, 10, RWC_NEED_READ, &v) == RWC_BUF_UNMAPPED,
	   "a munmap the view was told of: unmapped (the kernel confirms the bytes)");
	ok(verdict(A, 10, RWC_NEED_WRITE, &v) == RWC_OK, "the rest of that region: still good");
	rwc_watch_munmap((void *)(A + 2 * PG), PG, 1);
	ok(verdict(A + 2 * PG, 10, RWC_NEED_WRITE, &v) == RWC_OK, "a failed munmap changes nothing");
	rwc_watch_mprotect((void *)(A + 2 * PG), PG, PROT_READ, 0);
	ok(verdict(A + 2 * PG, 10, RWC_NEED_WRITE, &v) == RWC_BUF_NOT_WRITABLE, "an mprotect to r--: not writable");
	ok(verdict(A + 2 * PG, 10, RWC_NEED_READ, &v) == RWC_OK, "... still readable");
	ok(opens == before, "the overlay answered without reading the maps (reads: %d)", opens - before);
	ok(!rwc_snap_good(A + PG, 10, RWC_NEED_READ), "rwc_snap_good: no for the unmapped page");
	ok(!rwc_snap_good(A + 8 * PG, 100, RWC_NEED_WRITE), "rwc_snap_good: no under the overlay (the full path weighs it)");
	ok(!rwc_fast_range((void *)(A + 10 * PG), 100, RWC_NEED_WRITE), "the thread's cache: nothing yet");
	ok(rwc_snap_good(A + 10 * PG, 100, RWC_NEED_WRITE) && rwc_fast_range((void *)(A + 10 * PG), 100, RWC_NEED_WRITE),
	   "rwc_snap_good: yes away from the overlay, and the thread's cache knows it");
}

static void stale(void)
{
	struct rwc_verdict v;
	int before = opens;
	uint64_t g = rwc_gen;

	maps_text = "7f0000000000-7f0000004000 r--p 00000000 00:00 0\n";
	rwc_map_changed();
	ok(rwc_gen == g + 1, "rwc_map_changed: a new generation");
	ok(!rwc_fast_range((void *)(A + 8 * PG), 100, RWC_NEED_WRITE), "the thread's cache is empty for it");
	ok(verdict(A, 10, RWC_NEED_WRITE, &v) == RWC_BUF_NOT_WRITABLE && opens == before + 1,
	   "the next verdict reads the maps again and sees the change");
	ok(verdict(A + 8 * PG, 10, RWC_NEED_READ, &v) == RWC_BUF_UNMAPPED, "the overlay is gone with the old snapshot");
	rwc_watch_mmap(MAP_FAILED, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED);
	ok(rwc_gen == g + 2, "a failed MAP_FIXED mmap: stale (the old mapping may be gone)");
	rwc_watch_mprotect((void *)A, PG, PROT_READ | PROT_WRITE, 1);
	ok(rwc_gen == g + 3, "a failed mprotect: stale");
}

/* The heap's growth is news; a trim, or a heap the snapshot did not
 * know, is not (the maps are read again).  The view reads glibc's
 * program break itself: set here for one call, nothing allocated
 * meanwhile. */
extern void *__curbrk;
static void brk_at(uintptr_t b)
{
	void *real = __curbrk;

	__curbrk = (void *)b;
	rwc_watch_brk();
	__curbrk = real;
}

static void heap_top(void)
{
	struct rwc_verdict v;
	int before;
	uint64_t g;

	maps_text = "7f0000000000-7f0000004000 rw-p 00000000 00:00 0    [heap]\n";
	rwc_map_changed();
	ok(verdict(A, 10, RWC_NEED_WRITE, &v) == RWC_OK, "heap: the maps read, [heap] good");
	before = opens;
	brk_at(A + 6 * PG + 100);
	ok(verdict(A + 6 * PG, 100, RWC_NEED_WRITE, &v) == RWC_OK && opens == before,
	   "the break moved up: the grown heap good up to its page end, without reading the maps");
	ok(verdict(A + 7 * PG, 10, RWC_NEED_READ, &v) == RWC_BUF_UNMAPPED, "... and nothing past it");
	ok(rwc_brk_seen == (void *)(A + 6 * PG + 100), "the break the view took news of is kept");
	g = rwc_gen;
	brk_at(A + 7 * PG);
	ok(rwc_gen == g, "the break moved within the page the view knows: no news");
	brk_at(A + 7 * PG + 1);
	brk_at(A + 7 * PG + 2);
	ok(rwc_gen == g + 1 && opens == before, "into the next page: one news; within it again: none");
	rwc_watch_mprotect((void *)(A + 9 * PG), PG, PROT_READ, 0);
	g = rwc_gen;
	brk_at(A + 12 * PG);
	ok(rwc_gen == g + 1 && verdict(A + 9 * PG, 10, RWC_NEED_WRITE, &v) != RWC_OK,
	   "a growth over a range the overlay has news of (an mprotect): stale, not taken over it");
	maps_text = "7f0000000000-7f0000004000 rw-p 00000000 00:00 0    [heap]\n";
	ok(verdict(A, 10, RWC_NEED_WRITE, &v) == RWC_OK && rwc_brk_seen == NULL, "re-read: no break taken since");
	g = rwc_gen;
	brk_at(A + 3 * PG);
	ok(rwc_gen == g + 1 && !rwc_snap_good(A + 3 * PG, 10, RWC_NEED_READ), "a trim: stale");
	maps_text = "7f0000000000-7f0000004000 rw-p 00000000 00:00 0\n";
	rwc_map_changed();
	ok(verdict(A, 10, RWC_NEED_WRITE, &v) == RWC_OK, "maps without a heap");
	g = rwc_gen;
	brk_at((uintptr_t)__curbrk + 20 * PG);
	ok(rwc_gen == g + 1, "no [heap] read: a growth from the program break the refresh saw is news too");
}

static void hidden(void)
{
	rwc_map_hide(A + 20 * PG, A + 21 * PG);
	ok(rwc_snap_hidden(A + 20 * PG, A + 21 * PG, RWC_PROT_SHARED), "the report's placeholder (---s) is hidden");
	ok(!rwc_snap_hidden(A + 20 * PG, A + 21 * PG, RWC_PROT_SHARED | RWC_PROT_R), "not when it is readable");
	ok(!rwc_snap_hidden(A + 20 * PG, A + 22 * PG, RWC_PROT_SHARED), "not another range");
}

static void too_many(void)
{
	struct rwc_verdict v;
	static char junk[64];

	memcpy(junk, "7f0000000000-7f00000 garbage\n", 30);
	maps_text = junk;
	rwc_map_changed();
	ok(verdict(A, 10, RWC_NEED_READ, &v) != RWC_OK, "a maps line it cannot parse: no good verdict");
}

/* The runs of unnamed regions and holes between named ones. */
static void unnamed_runs(void)
{
	struct rwc_verdict v;
	uintptr_t lo = 1, hi = 1;
	uint64_t g;

	maps_text = "7f0000000000-7f0000002000 r--p 00000000 08:01 42   /lib/x.so\n"
		    "7f0000002000-7f0000003000 rw-p 00000000 00:00 0\n"
		    "7f0000005000-7f0000006000 rw-p 00000000 00:00 0\n"
		    "7f0000006000-7f0000007000 rw-p 00000000 00:00 0    [heap]\n"
		    "7f0000008000-7f0000009000 rw-p 00000000 00:00 0\n";
	rwc_map_changed();
	ok(verdict(A, 10, RWC_NEED_READ, &v) == RWC_OK, "runs: a snapshot made");
	g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	ok(rwc_snap_unnamed_run(g, A + 2 * PG + 8, &lo, &hi) && lo == A + 2 * PG && hi == A + 6 * PG,
	   "runs: an unnamed region: from the named one below to the named one above (the hole with it)");
	ok(rwc_snap_unnamed_run(g, A + 4 * PG, &lo, &hi) && lo == A + 2 * PG && hi == A + 6 * PG,
	   "runs: in a hole: the same run");
	ok(rwc_snap_unnamed_run(g, A + 9 * PG, &lo, &hi) && lo == A + 7 * PG && hi == UINTPTR_MAX,
	   "runs: above the last named region: to the top");
	ok(!rwc_snap_unnamed_run(g, A + PG, &lo, &hi) && !rwc_snap_unnamed_run(g, A + 6 * PG + 8, &lo, &hi),
	   "runs: in a named region (a file, [heap]): none");
	ok(rwc_snap_unnamed_run(g, 4096, &lo, &hi) && lo == 0 && hi == A, "runs: below the first named region: from 0");
	ok(!rwc_snap_unnamed_run(g + 1, A + 2 * PG + 8, &lo, &hi), "runs: not for another generation");
}

/* The overlay's pure parts on their own arrays. *//* The overlay's pure parts on their own arrays. */
static void overlay_alone(void)
{
	struct rwc_ovl o[RWC_OVL_CAP];
	struct rwc_verdict v;
	unsigned n = 0, by = 9;
	int full = 1;

	ok(rwc_ovl_place(o, &n, A, A + PG, RWC_PROT_R) && n == 1, "place: the first entry is appended");
	ok(rwc_ovl_place(o, &n, A, A + PG, -1) && n == 1 && o[0].prot == -1,
	   "place: the same range again overwrites it in place");
	ok(rwc_ovl_place(o, &n, A + PG / 2, A + 2 * PG, RWC_PROT_R | RWC_PROT_W) && n == 2, "place: an overlapping range is appended");
	ok(rwc_ovl_place(o, &n, A, A + PG, RWC_PROT_R) && n == 3 && o[0].prot == -1,
	   "place: the same range under a newer overlapping entry is appended, the old one kept");
	rwc_verdict_init(&v, A + PG + 8, 16, RWC_NEED_WRITE);
	ok(rwc_ovl_verdict(o, n, &v, &by) == 1 && v.problem == RWC_OK && by == 1, "verdict: the newest covering entry decides (rw)");
	rwc_verdict_init(&v, A + 8, 16, RWC_NEED_WRITE);
	ok(rwc_ovl_verdict(o, n, &v, &by) == 1 && v.problem == RWC_BUF_NOT_WRITABLE && by == 2,
	   "verdict: the newest of two overlapping entries decides (r--)");
	rwc_verdict_init(&v, A + PG - 8, 2 * PG, RWC_NEED_READ);
	ok(rwc_ovl_verdict(o, n, &v, &by) == -1, "verdict: a range only partly under an entry: re-read the map");
	rwc_verdict_init(&v, A + 8 * PG, 16, RWC_NEED_READ);
	ok(rwc_ovl_verdict(o, n, &v, &by) == 0, "verdict: a range under no entry: nothing to say");
	ok(rwc_ovl_overlaps(o, 0, n, A + PG, A + PG + 1) && !rwc_ovl_overlaps(o, 2, n, A + PG, A + PG + 1),
	   "overlaps: from an index on");
	for (unsigned k = 0; k < RWC_OVL_CAP && full; k++)
		full = rwc_ovl_place(o, &n, A + (20 + 2 * k) * PG, A + (21 + 2 * k) * PG, RWC_PROT_R);
	ok(!full && n == RWC_OVL_CAP, "place: 0 once the overlay is full (%u entries)", n);
}

int main(void)
{
	void *mem = mmap(NULL, RWC_OWN_SNAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);

	if (mem == MAP_FAILED)
		return 99;
	rwc_own_parts[RWC_OWN_SNAP] = mem;
	for (int pm = 0; pm < 2; pm++) { /* the page map, then the regions searched */
		rwc_snap_pm_min = pm ? SIZE_MAX : 0;
		opens = 0;
		rwc_map_changed();
		overlay_alone();
		snapshot_alone();
		overlay();
		stale();
		heap_top();
		hidden();
		too_many();
		unnamed_runs();
	}
	return done_testing();
}
