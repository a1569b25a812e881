/* quarantine.c: the ring of freed blocks (see quarantine.h).  Slot i of
 * the ring holds the block of free number i, i modulo the ring's length;
 * tail is the next free's number, head the oldest not yet given back.  A
 * block leaves the ring by the one exchange that takes it out of its
 * slot, so each is given back exactly once, whichever thread takes it. */
#include "config.h"

#include "bounds/quarantine.h"

#include "base/common.h"
#include "bounds/chunk.h"
#include "mapview/ownmap.h"

size_t rwc_q_limit = RWC_QUARANTINE_DEFAULT;

static void **ring RWC_START_DATA;      /* len slots, mapped on first use */
static size_t len RWC_START_DATA;       /* a power of two */
static int ring_state RWC_START_DATA;   /* 0 none, 1 mapping, 2 ready, -1 failed */
/* The counters, on a line of their own, in the page of .data that a fork
 * child writes anyway (base/ownmem.c's start_pid: RWC_START_DATA), so
 * that its first free copies no page of them (before: a page a child):
 * held: bytes of the blocks in the ring; a put counts its block after the
 * exchange that shows it, so a take racing it may see the sum short, even
 * negative (then it gives nothing back: the safe side);
 * tail, head: the next free's number, the oldest not given back. */
struct rwc_q_ctr rwc_q_ctr RWC_START_DATA;


/* The ring, made on the first put: one slot per 64 bytes of the limit
 * (most freed blocks are larger), 1024 to 1 Mi slots; up to the default
 * limit's 8192 slots in .bss (no mapping at start: a system call and a
 * mapping less per process), a larger one mapped. */
#define BSS_SLOTS 8192
static void *ring_bss[BSS_SLOTS];

static inline __attribute__((always_inline)) void **get_ring(void)
{
	int s = __atomic_load_n(&ring_state, __ATOMIC_ACQUIRE);
	size_t n = 1024, want = __atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED) / 64;
	void *m;

	if (RWC_LIKELY(s == 2))
		return ring;
	if (s != 0 || !__atomic_compare_exchange_n(&ring_state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return NULL; /* another thread maps it: not held this time */
	while (n < want && n < (1u << 20))
		n *= 2;
	m = n <= BSS_SLOTS ? (void *)ring_bss : rwc_own_mmap(n * sizeof(void *));
	if (!m) {
		__atomic_store_n(&ring_state, -1, __ATOMIC_RELEASE);
		return NULL;
	}
	ring = m;
	len = n;
	__atomic_store_n(&ring_state, 2, __ATOMIC_RELEASE);
	return ring;
}

/* Each thread claims RESERVE slots of the ring at a time (one add to
 * tail) and fills them in order: [next, end) are its claimed slots not
 * yet filled.  A slot a take passed while still empty gets its block
 * later all the same: that block then leaves by the exchange of the
 * ring's next turn.  A signal handler's put that interrupts one may
 * fill the same slot: the exchange gives the other block back at once. */
#define RESERVE 16
static __thread unsigned long next __attribute__((tls_model("initial-exec")));
static __thread unsigned long end __attribute__((tls_model("initial-exec")));

static inline unsigned long claim(void)
{
	unsigned long i = next;

	if (RWC_UNLIKELY(i >= end || end - i > RESERVE)) {
		i = __atomic_fetch_add(&rwc_q_ctr.tail, RESERVE, __ATOMIC_ACQ_REL);
		end = i + RESERVE;
	}
	next = i + 1;
	return i;
}

/* rwc_q_put, and the free's number in *NUM (0: none taken). */
static void *put_num(void *p, size_t size, unsigned long *num)
{
	void **r = get_ring(), *old;
	unsigned long i;
	long delta;

	*num = 0;
	if (!r)
		return p;
	i = claim();
	*num = i + 1;
	old = __atomic_exchange_n(&r[i & (len - 1)], p, __ATOMIC_ACQ_REL);
	/* one add for both, P in and OLD out; none when they weigh the same */
	delta = (long)size - (old ? (long)rwc_q_chunk_size((uintptr_t)old) : 0);
	if (delta)
		__atomic_fetch_add(&rwc_q_ctr.held, delta, __ATOMIC_RELAXED);
	return old;
}

void *rwc_q_put(void *p, size_t size)
{
	unsigned long num;

	return put_num(p, size, &num);
}

void *rwc_q_tick(unsigned long *num)
{
	return put_num(NULL, 0, num);
}

/* The number the next free would take, as far as this thread can tell:
 * its next claimed slot while no other claim came after its own (one
 * thread: exact); else the tail. */
unsigned long rwc_q_now(void)
{
	unsigned long t = __atomic_load_n(&rwc_q_ctr.tail, __ATOMIC_ACQUIRE);

	if (end == t && next < end)
		t = next;
	return t;
}

void *rwc_q_take_slow(void)
{
	void *old;

	if (__atomic_load_n(&ring_state, __ATOMIC_ACQUIRE) != 2)
		return NULL;
	while (__atomic_load_n(&rwc_q_ctr.held, __ATOMIC_RELAXED) > (long)__atomic_load_n(&rwc_q_limit, __ATOMIC_RELAXED)) {
		unsigned long h = __atomic_load_n(&rwc_q_ctr.head, __ATOMIC_ACQUIRE);
		unsigned long t = __atomic_load_n(&rwc_q_ctr.tail, __ATOMIC_ACQUIRE), to = h + 1;

		if (h >= t)
			return NULL;
		if (t - h > len)
			to = t - len; /* older turns of the ring went out by exchange */
		if (!__atomic_compare_exchange_n(&rwc_q_ctr.head, &h, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		if (to != h + 1)
			continue;
		old = __atomic_exchange_n(&ring[h & (len - 1)], NULL, __ATOMIC_ACQ_REL);
		if (old) {
			__atomic_fetch_sub(&rwc_q_ctr.held, (long)rwc_q_chunk_size((uintptr_t)old), __ATOMIC_RELAXED);
			return old;
		}
	}
	return NULL;
}

unsigned long rwc_q_age(uintptr_t p)
{
	unsigned long t;

	if (!p || __atomic_load_n(&ring_state, __ATOMIC_ACQUIRE) != 2)
		return 0;
	t = rwc_q_now();
	for (size_t k = 0; k < len; k++)
		if ((uintptr_t)__atomic_load_n(&ring[k], __ATOMIC_RELAXED) == p)
			return ((t - 1 - k) & (len - 1)) + 1;
	return 0;
}

RWC_START_CODE void rwc_q_prepare(void)
{
	(void)get_ring();
}
