/* fork.c: fork() through the library.  The child tells the library's
 * per-process state that it is a process of its own (base/ownmem.h)
 * before the program's code goes on; the program's own fork handlers
 * run before that, and a check they make finds its way as a raw clone's
 * child does (ownmem.c).  This replaces a fork handler registered at
 * start: pthread_atfork touches three pages of libc in every process,
 * most of which never fork. */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "base/common.h"
#include "base/ownmem.h"
#include "base/real.h"
#include "entry/execnote.h"
#include "frames/dwprobe.h"

RWC_FORK_CODE RWC_EXPORT pid_t fork(void)
{
	int e = errno;
	pid_t r;

	rwc_real_bind_forkset();
	rwc_exec_warm();
	errno = e;
	r = REAL(fork)();

	if (r == 0) {
		e = errno;
		rwc_ownmem_forked();
		rwc_dwprobe_forked();
		errno = e;
	}
	return r;
}
