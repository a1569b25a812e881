/* ownmem.c: the library's own memory, mapped at first need (ownmem.h),
 * and the per-process state's owner (perproc.h).
 *
 * The memory is one private anonymous mapping, never backed until
 * touched: the per-process state in its first pages (MADV_WIPEONFORK, so
 * a fork() child finds it zeroed and claims it), then the snapshots and
 * the report scratch.  A vfork() child shares its parent's memory and
 * must leave the parent's state alone: it tells itself from the owner
 * pid.  Whose the state is when it is claimed (mapped, or found zeroed)
 * is asked of the kernel: kcmp(KCMP_VM) says whether this process shares
 * its parent's memory.  Nothing of this runs in the constructor. */
#include "config.h"

#include "ownmem.h"

#include <errno.h>
#include <linux/kcmp.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "perproc.h"
#include "real.h"
#include "report.h"
#include "snapshot.h"

enum { NONE, BUSY, READY, FAILED };

/* Before the first need, and where not even the per-process pages could
 * be mapped (fork() children then share the parent's reported sites). */
static struct rwc_perproc fallback;
struct rwc_perproc *rwc_perproc = &fallback;
static int state = NONE;
static pid_t mapper; /* the thread mapping it while state is BUSY */

/* Whose state is claimed now: the parent's in a vfork() child (it shares
 * the parent's memory), else this process's.  Where kcmp is missing
 * (a kernel without CONFIG_KCMP) a process is taken to be its own. */
static pid_t owner_now(void)
{
	pid_t me = getpid(), parent = getppid();
	int e = errno;
	long same = REAL(syscall)(SYS_kcmp, me, parent, KCMP_VM, 0, 0);

	errno = e;
	return same == 0 ? parent : me;
}

int rwc_in_vfork_child(void)
{
	pid_t me = getpid(), o = __atomic_load_n(&rwc_perproc->owner, __ATOMIC_ACQUIRE), n;

	if (o == 0) {
		n = owner_now();
		if (__atomic_compare_exchange_n(&rwc_perproc->owner, &o, n, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			o = n;
	}
	return o != me;
}

static char *map(size_t len)
{
	char *p = REAL(mmap)(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p;
}

static int map_now(void)
{
	size_t pg = getauxval(AT_PAGESZ), snap = rwc_snap_mem_size();
	size_t wipe = (sizeof(struct rwc_perproc) + pg - 1) & ~(pg - 1);
	struct rwc_perproc *pp = &fallback;
	char *p = map(wipe + snap + rwc_report_mem_size());
	int s = READY;

	if (p == MAP_FAILED) { /* (a tight ulimit -v) the per-process pages alone */
		s = FAILED; /* no cached view: every check asks the kernel */
		p = map(wipe);
	}
	if (p != MAP_FAILED && madvise(p, wipe, MADV_WIPEONFORK) == 0) /* else: kernel before 4.14 */
		pp = (struct rwc_perproc *)p;
	pp->owner = owner_now();
	if (s == READY) {
		rwc_snap_init(p + wipe);
		rwc_report_init(p + wipe + snap);
	}
	__atomic_store_n(&rwc_perproc, pp, __ATOMIC_RELEASE);
	return s;
}

/* A fork() child of a process that was mapping the memory right then:
 * the mapping thread is not in the child. */
static int mapper_gone(void)
{
	pid_t m = __atomic_load_n(&mapper, __ATOMIC_ACQUIRE);

	return m != 0 && m != gettid() && REAL(syscall)(SYS_tgkill, getpid(), m, 0) != 0;
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
			__atomic_store_n(&mapper, gettid(), __ATOMIC_RELEASE);
			s = map_now();
			__atomic_store_n(&state, s, __ATOMIC_RELEASE);
		}
		errno = e;
	}
	return s == READY ? 1 : s == FAILED ? -1 : 0;
}

int rwc_ownmem_ready(void)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == READY;
}
