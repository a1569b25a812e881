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
#include "frames/dwprobe.h"

RWC_EXPORT pid_t fork(void)
{
	pid_t r = REAL(fork)();

	if (r == 0) {
		int e = errno;

		rwc_ownmem_forked();
		rwc_dwprobe_forked();
		errno = e;
	}
	return r;
}
