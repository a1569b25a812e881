/* ownheap.c: the library's own heap (see ownheap.h).  Blocks of 2^k
 * bytes (32 B .. 128 KiB) carved from slabs the library maps itself, one
 * free list per size; larger blocks are mappings of their own.  One lock,
 * held for a few instructions; the thread holding it never waits for it
 * (a signal handler that interrupted it is refused), and a fork child
 * whose parent held it starts from empty lists.  Not on any fast path:
 * only the library's own allocations come here. */
#include "config.h"

#include "mapview/ownheap.h"
#include "base/common.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "mapview/ownmap.h"
#include "base/once.h"
#include "base/real.h"

#define MIN_SHIFT 5
#define MAX_SHIFT 17
#define CLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define SLAB_MIN ((size_t)1 << 20)
#define REGIONS 64
#define HDR 16 /* two words before each block: its start, its size */

struct region {
	uintptr_t lo, hi; /* 0, 0: a free entry */
};

static struct {
	int held;
	pid_t owner;
	void *free_list[CLASSES];
	uintptr_t bump, bump_end; /* the current slab's unused part */
	size_t next_slab;
	struct region regions[REGIONS];
} H;

uintptr_t rwc_ownheap_lo = UINTPTR_MAX, rwc_ownheap_hi RWC_START_DATA;

static int lock(void)
{
	pid_t me = gettid();

	for (;;) {
		int z = 0;
		pid_t o;

		if (__atomic_compare_exchange_n(&H.held, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		o = __atomic_load_n(&H.owner, __ATOMIC_ACQUIRE);
		if (o == me)
			return 0; /* a handler that interrupted this thread's own use */
		if (o && rwc_thread_gone(o) &&
		    __atomic_compare_exchange_n(&H.owner, &o, me, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			/* held by a thread of the parent of this fork child, maybe
			 * mid-update: its lists are dropped (the memory leaks). */
			memset(H.free_list, 0, sizeof H.free_list);
			H.bump = H.bump_end = 0;
			break;
		}
		sched_yield();
	}
	__atomic_store_n(&H.owner, me, __ATOMIC_RELEASE);
	return 1;
}

static void unlock(void)
{
	__atomic_store_n(&H.owner, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&H.held, 0, __ATOMIC_RELEASE);
}

/* A new mapping of LEN bytes, recorded as a region (NULL: none to be had). */
static void *map_region(size_t len)
{
	int i;
	void *p;

	for (i = 0; i < REGIONS && H.regions[i].hi; i++)
		;
	if (i == REGIONS)
		return NULL;
	p = rwc_own_mmap(len);
	if (!p)
		return NULL;
	H.regions[i].lo = (uintptr_t)p;
	__atomic_store_n(&H.regions[i].hi, (uintptr_t)p + len, __ATOMIC_RELEASE);
	if ((uintptr_t)p < rwc_ownheap_lo)
		__atomic_store_n(&rwc_ownheap_lo, (uintptr_t)p, __ATOMIC_RELEASE);
	if ((uintptr_t)p + len > rwc_ownheap_hi)
		__atomic_store_n(&rwc_ownheap_hi, (uintptr_t)p + len, __ATOMIC_RELEASE);
	return p;
}

static void unmap_region(uintptr_t lo)
{
	for (int i = 0; i < REGIONS; i++)
		if (H.regions[i].lo == lo && H.regions[i].hi) {
			size_t len = H.regions[i].hi - lo;

			__atomic_store_n(&H.regions[i].hi, 0, __ATOMIC_RELEASE);
			H.regions[i].lo = 0;
			rwc_own_munmap((void *)lo, len);
			break;
		}
}

int rwc_ownheap_has_slow(const void *p)
{
	for (int i = 0; i < REGIONS; i++) {
		uintptr_t hi = __atomic_load_n(&H.regions[i].hi, __ATOMIC_ACQUIRE);

		if (hi && (uintptr_t)p >= H.regions[i].lo && (uintptr_t)p < hi)
			return 1;
	}
	return 0;
}

/* The size class of a block of at least N bytes; CLASSES: none (a
 * mapping of its own). */
static int class_of(size_t n)
{
	int c = 0;

	while (c < CLASSES && ((size_t)1 << (c + MIN_SHIFT)) < n)
		c++;
	return c;
}

/* A block of 2^(C + MIN_SHIFT) bytes, under the lock. */
static uintptr_t take_small(int c)
{
	size_t sz = (size_t)1 << (c + MIN_SHIFT);
	void *b = H.free_list[c];

	if (b) {
		H.free_list[c] = *(void **)b;
		return (uintptr_t)b;
	}
	if (H.bump_end - H.bump < sz) {
		size_t len = H.next_slab < SLAB_MIN ? SLAB_MIN : H.next_slab;
		void *s = map_region(len);

		if (!s)
			return 0;
		H.next_slab = len * 2; /* few regions, however much is asked */
		H.bump = (uintptr_t)s;
		H.bump_end = (uintptr_t)s + len;
	}
	H.bump += sz;
	return H.bump - sz;
}

void *rwc_ownheap_alloc(size_t n, size_t align)
{
	size_t need, len;
	uintptr_t b = 0, u;
	int c;

	if (align < HDR)
		align = HDR;
	if (n > ((size_t)1 << 40) || (align & (align - 1)))
		return NULL;
	need = n + HDR + (align > HDR ? align : 0);
	c = class_of(need);
	len = c < CLASSES ? (size_t)1 << (c + MIN_SHIFT) : (need + 4095) & ~(size_t)4095;
	if (!lock())
		return NULL;
	b = c < CLASSES ? take_small(c) : (uintptr_t)map_region(len);
	unlock();
	if (!b)
		return NULL;
	u = (b + HDR + align - 1) & ~(uintptr_t)(align - 1);
	((uintptr_t *)u)[-2] = b;
	/* glibc's view of a chunk header: size (usable + 16), IS_MMAPPED */
	((size_t *)u)[-1] = (b + len - u + HDR) | 2;
	return (void *)u;
}

size_t rwc_ownheap_usable(const void *p)
{
	return (((const size_t *)p)[-1] & ~(size_t)7) - HDR;
}

void rwc_ownheap_free(void *p)
{
	uintptr_t b = ((uintptr_t *)p)[-2];
	size_t len = (uintptr_t)p + rwc_ownheap_usable(p) - b;
	int c = class_of(len);

	if (!lock())
		return; /* from a handler inside this thread's own use: leaked */
	if (c < CLASSES && ((size_t)1 << (c + MIN_SHIFT)) == len) {
		*(void **)b = H.free_list[c];
		H.free_list[c] = (void *)b;
	} else {
		unmap_region(b);
	}
	unlock();
}
