/* unwind.c: backtraces with a lazily loaded libunwind (see unwind.h).
 * The load (dlopen) allocates and takes the loader's lock; the unwinding
 * itself is libunwind's local, signal-safe unw_step. */
#include "config.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "unwind.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "once.h"

#define RWC_STR_(x) #x
#define RWC_STR(x) RWC_STR_(x)

static struct {
	int (*getcontext)(unw_context_t *);
	int (*init_local)(unw_cursor_t *, unw_context_t *);
	int (*step)(unw_cursor_t *);
	int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
} U;

static struct rwc_once once;

static void *unwind_handle; /* stays loaded: reports keep coming */

static int load_unwind(void)
{
	void *h = unwind_handle = dlopen(RWC_UNWIND_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return 0;
	/* Arch-specific: on x86-64 unw_getcontext is the function
	 * _Ux86_64_getcontext; where it is an inline-asm macro the lookup
	 * fails and reports carry the caller frame only. */
	*(void **)&U.getcontext = dlsym(h, RWC_STR(unw_tdep_getcontext));
	*(void **)&U.init_local = dlsym(h, RWC_STR(unw_init_local));
	*(void **)&U.step = dlsym(h, RWC_STR(unw_step));
	*(void **)&U.get_reg = dlsym(h, RWC_STR(unw_get_reg));
	return U.getcontext && U.init_local && U.step && U.get_reg;
}

/* libunwind opens a pipe at its first use, to probe memory, and keeps it:
 * two descriptors the program would see.  At that first use we learn the
 * pair of descriptor numbers that appeared, and find where libunwind keeps
 * them (the pair occurs exactly once in its writable data); after each
 * backtrace we close them and store -1 there: libunwind re-opens the pipe
 * when it next needs it (it tries the pipe first).  Backtraces run under
 * the report lock only (see report.c), so no other thread is inside
 * libunwind meanwhile.  If the pair is not found exactly once, the pipe
 * stays open (close-on-exec, so no child inherits it). */
#define FD_SCAN 1024
static int *unw_pipe;

struct find {
	int rfd, wfd, hits;
	int *where;
};

static int find_pair(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libunwind"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		int *p, *e;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		p = (int *)(info->dlpi_addr + ph->p_vaddr);
		e = (int *)(info->dlpi_addr + ph->p_vaddr + ph->p_memsz) - 1;
		for (p = (int *)(((uintptr_t)p + 3) & ~(uintptr_t)3); p < e; p++)
			if (p[0] == f->rfd && p[1] == f->wfd) {
				f->hits++;
				f->where = p;
			}
	}
	return 0;
}

static void learn_pipe(const unsigned char *before)
{
	struct find f = {-1, -1, 0, NULL};

	for (int fd = 0; fd < FD_SCAN; fd++) {
		struct stat st;
		int fl;

		if (before[fd] || fcntl(fd, F_GETFD) == -1 || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
			continue;
		fl = fcntl(fd, F_GETFL);
		if ((fl & O_ACCMODE) == O_RDONLY && f.rfd < 0)
			f.rfd = fd;
		else if ((fl & O_ACCMODE) == O_WRONLY && f.wfd < 0)
			f.wfd = fd;
	}
	if (f.rfd < 0 || f.wfd < 0)
		return;
	dl_iterate_phdr(find_pair, &f);
	if (f.hits == 1)
		unw_pipe = f.where;
}

static void drop_pipe(void)
{
	if (unw_pipe && unw_pipe[0] >= 0 && unw_pipe[1] >= 0) {
		close(unw_pipe[0]);
		close(unw_pipe[1]);
		unw_pipe[0] = unw_pipe[1] = -1;
	}
}

int rwc_backtrace(uintptr_t *pcs, int max, uintptr_t caller, int may_load)
{
	static int learned;
	unsigned char before[FD_SCAN];
	unw_context_t uc;
	unw_cursor_t c;
	int n = 0, found = 0, first = 0;

	if (max <= 0)
		return 0;
	/* Outside the report lock (a signal handler, a vfork child, a nested
	 * report): the caller only, no libunwind. */
	if (!may_load || !rwc_once(&once, load_unwind)) {
		pcs[0] = caller;
		return 1;
	}
	if (!learned) {
		first = 1;
		for (int fd = 0; fd < FD_SCAN; fd++)
			before[fd] = fcntl(fd, F_GETFD) != -1;
	}
	if (U.getcontext(&uc) != 0 || U.init_local(&c, &uc) < 0) {
		pcs[0] = caller;
		n = 1;
		goto out;
	}
	if (first) {
		learned = 1;
		learn_pipe(before);
	}
	for (int steps = 0; n < max && steps < 256; steps++) {
		unw_word_t ip;

		if (U.get_reg(&c, UNW_REG_IP, &ip) < 0 || ip == 0)
			break;
		if (!found && (uintptr_t)ip == caller)
			found = 1;
		if (found)
			pcs[n++] = (uintptr_t)ip;
		if (U.step(&c) <= 0)
			break;
	}
	if (!found) {
		pcs[0] = caller;
		n = 1;
	}
out:
	drop_pipe();
	return n;
}
