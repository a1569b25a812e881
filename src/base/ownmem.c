/* ownmem.c: the library's own memory, mapped at first need (ownmem.h),
 * and the per-process state's owner (perproc.h).
 *
 * The memory is one private anonymous mapping, never backed until
 * touched: the per-process state in its first pages (MADV_WIPEONFORK, so
 * a fork() child finds it zeroed and claims it), then the clients' parts
 * (ownmem.h: the snapshots, the report scratch, the globals' objects).  A
 * vfork() child shares its parent's memory and must leave the parent's
 * state alone: it tells itself from the owner pid.  Whose the state is
 * when it is claimed (mapped, or found zeroed) follows from the pid the
 * constructor recorded, renewed in a fork() child by the library's fork()
 * (entry/fork.c; no fork handler: pthread_atfork costs every process start
 * three pages of libc), which also claims the zeroed pages at once (a
 * vfork child of that child then finds them owned): a process with
 * another pid is a vfork child — or the child of a fork inside libc
 * (daemon, forkpty, _Fork) or of a raw clone(): kcmp(KCMP_VM) with the
 * parent tells them apart, and where it cannot (seccomp, as in Docker's
 * default profile) the process is taken for a vfork child, whose reports
 * are made in safe mode. */
#include "config.h"

#include "base/ownmem.h"

#include <errno.h>
#include <linux/kcmp.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/pagesize.h"
#include "base/perproc.h"
#include "base/rawsys.h"
#include "base/real.h"

enum { NONE = 1, BUSY, READY, FAILED }; /* (not 0: state lives in .data, see start_pid) */

/* Before the first need, and where not even the per-process pages could
 * be mapped. */
static struct rwc_perproc fallback;
struct rwc_perproc *rwc_perproc = &fallback;
static int state = NONE;
static pid_t mapper RWC_START_DATA; /* the process mapping it while state is BUSY */
/* The constructor's process, renewed in each fork() child (in .data: a
 * page the loader has written anyway, no page fault of its own). */
static pid_t start_pid = -1;

/* 0: processes A and B share one address space; 1: they do not; -1:
 * cannot tell (a kernel without CONFIG_KCMP, or not allowed). */
static int other_memory(pid_t a, pid_t b)
{
	int e = errno;
	long r = REAL(syscall)(SYS_kcmp, a, b, KCMP_VM, 0, 0);

	errno = e;
	return r == 0 ? 0 : r > 0 ? 1 : -1;
}

/* Whose state is claimed now by ME (rwc_raw_getpid()): this process's, or its
 * parent's in a vfork() child (which shares the parent's memory). */
static pid_t owner_now(pid_t me)
{
	pid_t s = __atomic_load_n(&start_pid, __ATOMIC_RELAXED), parent;

	if (s <= 0 || s == me) /* (s <= 0: a call before the constructor) */
		return me;
	parent = getppid();
	switch (other_memory(me, parent)) {
	case 1:
		return me; /* the child of a raw clone() */
	case 0:
		return parent;
	default:
		return s; /* cannot tell: taken for a vfork child */
	}
}

RWC_FORK_CODE void rwc_ownmem_forked(void)
{
	__atomic_store_n(&start_pid, rwc_raw_getpid(), __ATOMIC_RELAXED);
	/* The thread that was mapping the memory is not in this child. */
	if (__atomic_load_n(&state, __ATOMIC_RELAXED) == BUSY)
		__atomic_store_n(&state, NONE, __ATOMIC_RELAXED);
	/* The state in .bss (no wipe-on-fork memory): the parent's locks and
	 * sites.  (Untouched before the first need: not written then.) */
	if (rwc_perproc == &fallback && __atomic_load_n(&state, __ATOMIC_RELAXED) != NONE)
		memset(&fallback, 0, sizeof fallback);
	/* Claimed at once: a vfork child this child makes later must find
	 * it owned (found zeroed, it could not tell itself from this one). */
	if (__atomic_load_n(&state, __ATOMIC_RELAXED) != NONE) {
		pid_t z = 0;

		__atomic_compare_exchange_n(&rwc_perproc->owner, &z, rwc_raw_getpid(), 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
	}
}

/* The state in .bss (no wipe-on-fork memory) still the parent's O in a
 * child of a fork the library's fork() did not see (inside libc: daemon,
 * forkpty; _Fork): kcmp says whether this is such a child, and then it
 * starts the state afresh.  A vfork child, or where kcmp cannot tell:
 * left as it is (taken for a vfork child). */
static pid_t fallback_forked(pid_t me, pid_t o)
{
	if (rwc_perproc != &fallback || o != __atomic_load_n(&start_pid, __ATOMIC_RELAXED) ||
	    other_memory(me, o) != 1)
		return o;
	memset(&fallback, 0, sizeof fallback);
	__atomic_store_n(&start_pid, me, __ATOMIC_RELAXED);
	__atomic_store_n(&fallback.owner, me, __ATOMIC_RELEASE);
	return me;
}

RWC_START_CODE void rwc_ownmem_start(void)
{
	/* (No libc: a first call of getpid, or of syscall(), would cost a
	 * symbol lookup, ~0.2-1% of a process start.) */
	__atomic_store_n(&start_pid, rwc_raw_getpid(), __ATOMIC_RELAXED);
}

int rwc_in_vfork_child(void)
{
	pid_t me = rwc_raw_getpid(), o, n;

	/* Before the first need nothing is claimed (nor a page of the state
	 * touched to say so: a first check that needs none of it, dwprobe.h) */
	if (!rwc_ownmem_used())
		return owner_now(me) != me;
	o = __atomic_load_n(&rwc_perproc->owner, __ATOMIC_ACQUIRE);
	if (o == 0) {
		n = owner_now(me);
		if (__atomic_compare_exchange_n(&rwc_perproc->owner, &o, n, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			o = n;
	} else if (RWC_UNLIKELY(o != me)) {
		o = fallback_forked(me, o);
	}
	return o != me;
}

void *rwc_own_parts[RWC_OWN_NPARTS] RWC_START_DATA;

static char *map(size_t len)
{
	char *p = REAL(mmap)(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p;
}

/* LEN bytes at an address aligned to 2 MiB: what a small process touches
 * of them (the per-process pages, the top of the stack, the scan buffer,
 * the first snapshot's head) then lies under one page table, not several
 * (each new page table is a cost of its own: ~45 us in a VM that shadows
 * page tables, against ~10 us a page).  The 2 MiB of reserve around them
 * stay mapped, never touched: two munmaps cost ~10 us in a process's
 * first need (the kernel splits the mapping and flushes).  MAP_FAILED
 * without memory. */
static char *map_aligned(size_t len)
{
	const size_t al = (size_t)2 << 20;
	char *p = map(len + al);

	if (p == MAP_FAILED)
		return map(len);
	return (char *)(((uintptr_t)p + al - 1) & ~(al - 1));
}

static int map_now(void)
{
	size_t pg = rwc_page_size();
	size_t wipe = (sizeof(struct rwc_perproc) + pg - 1) & ~(pg - 1);
	struct rwc_perproc *pp = &fallback;
	char *p = map_aligned(wipe + RWC_OWN_SNAP_SIZE + RWC_OWN_REPORT_SIZE + RWC_OWN_GLOBALS_SIZE + RWC_OWN_STACK_SIZE);
	int s = READY;

	if (p == MAP_FAILED) { /* (a tight ulimit -v) the per-process pages alone */
		s = FAILED; /* no cached view: every check asks the kernel */
		p = map(wipe);
	}
	if (p != MAP_FAILED && madvise(p, wipe, MADV_WIPEONFORK) == 0) /* else: kernel before 4.14 */
		pp = (struct rwc_perproc *)p;
	pp->owner = owner_now(rwc_raw_getpid());
	if (s == READY) {
		/* the parts every process touches first (the stack's top,
		 * the snapshot part's scan buffer and first snapshot head) */
		rwc_own_parts[RWC_OWN_STACK] = p + wipe;
		rwc_own_parts[RWC_OWN_SNAP] = p + wipe + RWC_OWN_STACK_SIZE;
		rwc_own_parts[RWC_OWN_REPORT] = p + wipe + RWC_OWN_STACK_SIZE + RWC_OWN_SNAP_SIZE;
		rwc_own_parts[RWC_OWN_GLOBALS] = p + wipe + RWC_OWN_STACK_SIZE + RWC_OWN_SNAP_SIZE + RWC_OWN_REPORT_SIZE;
	}
	__atomic_store_n(&rwc_perproc, pp, __ATOMIC_RELEASE);
	return s;
}

/* The child of a raw clone() made while its parent was mapping the
 * memory (a fork() child is seen to by the library's fork()): the mapper is
 * not in this address space.  (A vfork child mapping it is: the parent's
 * other threads wait for it like for any thread.) */
static int mapper_gone(void)
{
	pid_t m = __atomic_load_n(&mapper, __ATOMIC_ACQUIRE);

	return m != 0 && other_memory(rwc_raw_getpid(), m) == 1;
}

int rwc_ownmem_get(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE), e;

	if (RWC_LIKELY(s == READY))
		return 1;
	if (s == NONE || s == BUSY) {
		e = errno;
		if (s == BUSY && mapper_gone())
			__atomic_compare_exchange_n(&state, &s, NONE, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		s = NONE;
		if (__atomic_compare_exchange_n(&state, &s, BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&mapper, rwc_raw_getpid(), __ATOMIC_RELEASE);
			s = map_now();
			__atomic_store_n(&state, s, __ATOMIC_RELEASE);
		}
		errno = e;
	}
	return s == READY ? 1 : s == FAILED ? -1 : 0;
}

int rwc_ownmem_used(void)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) != NONE;
}

int rwc_ownmem_ready(void)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == READY;
}
