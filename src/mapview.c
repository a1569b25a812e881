/* mapview.c: the memory-map view (see mapview.h).
 *
 * A snapshot of /proc/self/maps (sorted regions) answers good calls without
 * a system call.  Every map change the library can see (its interposed
 * mmap/munmap/mprotect/mremap/brk/sbrk/shm*, syscall(), dlclose, free of
 * mmapped blocks) bumps a generation counter; a snapshot older than the
 * counter is re-read before use.  Changes it cannot see (malloc's or the
 * loader's internal mmaps, thread stacks) only ever *add* memory the
 * snapshot lacks, which makes a good call look bad: so every bad verdict is
 * confirmed against the kernel (ioctl PROCMAP_QUERY, else a fresh parse)
 * before it is reported, and a snapshot that proved wrong is marked stale.
 *
 * Two snapshot buffers, each guarded by a sequence counter (odd while it is
 * written); one writer at a time through a try-lock: a thread that cannot
 * take it (another thread refreshing, or this thread's own refresh
 * interrupted by a signal handler) asks the kernel directly instead of
 * waiting.  Readers never block.  Signal-safe; allocates with mmap only. */
#include "config.h"

#include "mapview.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "maps_parse.h"
#include "real.h"

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

#define SNAP_CAP 131072u /* regions; vm.max_map_count defaults to 65530 */

struct snap {
	unsigned seq;       /* odd while being written */
	uint64_t gen;       /* generation when reading began */
	size_t n;
	int complete;       /* 0: more regions than SNAP_CAP, or a read error */
	struct rwc_region r[SNAP_CAP];
};

static struct snap *snaps[2];
static int cur = -1;              /* published snapshot, -1 none */
static uint64_t gen = 1;          /* bumped by every visible map change */
static int writer;                /* try-lock of the refresher */
static int procmap_query_off;     /* 1: kernel lacks it, or disabled */
static int proc_warned;

static uintptr_t hidden_lo, hidden_hi; /* a report's placeholder (report.c) */

static int refresh(void);

void rwc_map_hide(uintptr_t lo, uintptr_t hi)
{
	__atomic_store_n(&hidden_lo, lo, __ATOMIC_RELEASE);
	__atomic_store_n(&hidden_hi, hi, __ATOMIC_RELEASE);
}

/* The placeholder is not the program's memory: verdicts see the gap. */
static int hidden(uintptr_t start, uintptr_t end)
{
	return start == __atomic_load_n(&hidden_lo, __ATOMIC_ACQUIRE) &&
	       end == __atomic_load_n(&hidden_hi, __ATOMIC_ACQUIRE) && start != end;
}

void rwc_map_changed(void)
{
	__atomic_add_fetch(&gen, 1, __ATOMIC_RELEASE);
}

void rwc_map_atfork_child(void)
{
	__atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
}

void rwc_map_init(void)
{
	/* Both buffers now, at start: mapped later, they could land in a hole
	 * the program just made (a freed block, say) and hide a bad call
	 * there.  NORESERVE and untouched: only the pages used cost memory. */
	for (int i = 0; i < 2; i++) {
		void *p = REAL(mmap)(NULL, sizeof(struct snap), PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED)
			snaps[i] = p;
	}
	refresh();
}

void rwc_map_disable_procmap_query(void)
{
	procmap_query_off = 1;
}

static int open_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0 && !__atomic_exchange_n(&proc_warned, 1, __ATOMIC_RELAXED))
		rwc_log_warning("cannot open /proc/self/maps; calls are passed through unchecked", NULL);
	return fd;
}

static ssize_t real_read_fn(int fd, void *buf, size_t n)
{
	return REAL(read)(fd, buf, n);
}

/* ---- refresh ---------------------------------------------------------- */

static int snap_add(const struct rwc_map_entry *e, void *arg)
{
	struct snap *s = arg;

	if (hidden(e->start, e->end))
		return 0;
	if (s->n >= SNAP_CAP) {
		s->complete = 0;
		return 1;
	}
	s->r[s->n].start = e->start;
	s->r[s->n].end = e->end;
	s->r[s->n].prot = e->prot;
	s->n++;
	return 0;
}

/* Re-reads the map into the unpublished buffer and publishes it.  Returns
 * 0 if it could not (lock busy, no memory, no /proc). */
static int refresh(void)
{
	static char buf[65536]; /* guarded by the writer lock */
	int b, fd, rc;
	struct snap *s;

	if (__atomic_exchange_n(&writer, 1, __ATOMIC_ACQUIRE))
		return 0;
	b = __atomic_load_n(&cur, __ATOMIC_ACQUIRE) == 0 ? 1 : 0;
	s = snaps[b];
	if (!s) {
		__atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
		return 0;
	}
	fd = open_maps();
	if (fd < 0) {
		__atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
		return 0;
	}
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->gen = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
	s->n = 0;
	s->complete = 1;
	rc = rwc_maps_scan(fd, real_read_fn, buf, sizeof buf, snap_add, s, NULL);
	if (rc < 0)
		s->complete = 0;
	close(fd);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&cur, b, __ATOMIC_RELEASE);
	__atomic_store_n(&writer, 0, __ATOMIC_RELEASE);
	return 1;
}

/* Verdict from the snapshot: RWC_OK, a problem, or -1 when the snapshot
 * cannot answer (none, stale and not refreshable, incomplete). */
static int snapshot_verdict(struct rwc_verdict *v, uintptr_t lo, size_t len, unsigned need)
{
	for (int tries = 0; tries < 4; tries++) {
		uint64_t g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
		int i = __atomic_load_n(&cur, __ATOMIC_ACQUIRE);
		struct snap *s;
		unsigned seq;
		size_t n;

		if (i < 0 || __atomic_load_n(&snaps[i]->gen, __ATOMIC_ACQUIRE) != g) {
			if (!refresh())
				return -1;
			continue;
		}
		s = snaps[i];
		seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		n = __atomic_load_n(&s->n, __ATOMIC_RELAXED);
		if (!__atomic_load_n(&s->complete, __ATOMIC_RELAXED) || n > SNAP_CAP)
			return -1;
		rwc_verdict_init(v, lo, len, need);
		rwc_verdict_array(v, s->r, n);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq)
			continue;
		return v->problem;
	}
	return -1;
}

/* ---- asking the kernel ---------------------------------------------- */

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
		r.prot = ((q.vma_flags & PROCMAP_QUERY_VMA_READABLE) ? RWC_PROT_R : 0) |
			 ((q.vma_flags & PROCMAP_QUERY_VMA_WRITABLE) ? RWC_PROT_W : 0) |
			 ((q.vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE) ? RWC_PROT_X : 0) |
			 ((q.vma_flags & PROCMAP_QUERY_VMA_SHARED) ? RWC_PROT_SHARED : 0);
		if (r.end <= addr)
			return -1;
		if (!hidden(r.start, r.end))
			rwc_verdict_feed(v, &r, NULL);
		addr = r.end;
	}
	rwc_verdict_finish(v);
	return 0;
}

static int feed_entry(const struct rwc_map_entry *e, void *arg)
{
	struct rwc_verdict *v = arg;
	struct rwc_region r = {e->start, e->end, e->prot};
	struct rwc_region_info info = {e->offset, e->path, e->path_len};

	if (hidden(e->start, e->end))
		return 0;
	return rwc_verdict_feed(v, &r, &info);
}

/* Authoritative verdict with descriptions, from a fresh parse. */
static int parse_verdict(int fd, struct rwc_verdict *v)
{
	char buf[2048];

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	if (rwc_maps_scan(fd, real_read_fn, buf, sizeof buf, feed_entry, v, NULL) < 0)
		return -1;
	rwc_verdict_finish(v);
	return 0;
}

enum rwc_problem rwc_map_verdict(uintptr_t lo, size_t len, unsigned need, struct rwc_verdict *v)
{
	int fd, rc;

	rc = snapshot_verdict(v, lo, len, need);
	if (rc == RWC_OK)
		return RWC_OK;
	fd = open_maps();
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
	return RWC_OK;
}
