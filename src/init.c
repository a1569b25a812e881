/* init.c: the library's constructor, kept to what must happen at start:
 * map the library's memory in one go (before the program can make holes
 * for it to land in), put the locks that a fork must not inherit held in
 * a wipe-on-fork page, and bind write() before any signal handler can call
 * it.  The knobs are read and the rest bound by the first checked call
 * (call.c), also for calls that arrive before this constructor.  Every
 * microsecond here is paid by every process started under rwcheck. */
#include "config.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "forklocks.h"
#include "real.h"
#include "report.h"
#include "snapshot.h"

static struct rwc_forklocks fallback;
struct rwc_forklocks *rwc_forklocks = &fallback;

static void atfork_child(void)
{
	__builtin_memset(rwc_forklocks, 0, sizeof *rwc_forklocks);
}

__attribute__((constructor)) static void rwc_init(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), snap = rwc_snap_mem_size();
	size_t total = pg + snap + rwc_report_mem_size();
	char *p = REAL(mmap)(NULL, total, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	rwc_real_bind_early();
	if (p == MAP_FAILED) {
		pthread_atfork(NULL, NULL, atfork_child);
		return; /* no cached view: every check asks the kernel */
	}
	if (madvise(p, pg, MADV_WIPEONFORK) == 0)
		rwc_forklocks = (struct rwc_forklocks *)p;
	else
		pthread_atfork(NULL, NULL, atfork_child); /* kernel before 4.14 */
	rwc_snap_init(p + pg);
	rwc_report_init(p + pg + snap);
}
