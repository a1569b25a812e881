/* unwind.c: backtraces with a lazily loaded libunwind (see unwind.h).
 * The load (dlopen) allocates and takes the loader's lock; the unwinding
 * itself is libunwind's local, signal-safe unw_step.  The pipe libunwind
 * opens to probe memory is closed after each use (see below). */
#include "config.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "frames/unwind.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frames/keepout.h"
#include "base/once.h"

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

static int load_unwind_here(void)
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

/* libunwind's memory probe.  libunwind (1.6, src/x86_64/Ginit.c) keeps a
 * pipe in a static `int mem_validate_pipe[2] = {-1, -1}`: its first
 * unw_init_local opens it (pipe2, O_CLOEXEC), and a probe (unw_step checks
 * the addresses it reads) first reads a byte from [0] and, if that fails
 * other than with EAGAIN (EBADF for -1), opens a new pipe there.  Its two
 * descriptors take the program's lowest free numbers (0 if stdin is
 * closed).  No interface turns the probe off or names the variable.
 *
 * We find the variable at our first use, which initializes libunwind:
 * before it, the int pairs of libunwind's writable segments that are
 * {-1, -1}; after it, the one among them that holds the two ends of one
 * pipe (read end, write end, same inode).  Descriptor numbers alone would
 * not do: a pair like {0, 3} occurs in its data by chance.  After each
 * use we close both ends and store -1, so the next probe opens a pipe
 * again, which the next drop closes.  Our uses run under the report lock,
 * one at a time, so
 * between them the variable holds -1, never a number the program may
 * reuse (a probe would read or write the program's descriptor): when a
 * function of this file returns, no descriptor of ours is open, whichever
 * numbers the program had closed.  A fork() child of a thread that forked
 * during a use closes the ends it inherited (atfork handler).  The pipe is
 * visible only to the program's other threads, during a use.
 *
 * Limits.  A program that links the same libunwind and unwinds in
 * another thread during our use shares the variable: its probe may find
 * the pipe closed (a shorter trace for it), or, if a third thread got the
 * number in between, probe through that descriptor; we accept that rather
 * than leave a pipe in every such program.  A libunwind the program had
 * initialized before our first use has its own pipe open already (no
 * change to find, nothing of ours opened); one whose variable is not
 * found keeps its pipe open, close-on-exec. */
#define PIPE_CANDS 64
static int *cand[PIPE_CANDS];
static int ncand;
static int *unw_pipe;

/* Is A in a segment of the object INFO? */
static int owns(const struct dl_phdr_info *info, uintptr_t a)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && a >= lo && a - lo < ph->p_memsz)
			return 1;
	}
	return 0;
}

/* Records in cand[] the {-1, -1} int pairs of the writable segments of
 * the object holding libunwind's code; more than PIPE_CANDS: none. */
static int find_unset(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (!owns(info, (uintptr_t)U.init_local))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		for (int *p = (int *)((lo + 3) & ~(uintptr_t)3), *e = (int *)(lo + ph->p_memsz) - 1; p < e; p++)
			if (p[0] == -1 && p[1] == -1) {
				if (ncand == PIPE_CANDS) {
					ncand = 0;
					return 1;
				}
				cand[ncand++] = p;
			}
	}
	return 1;
}

/* Are R and W the read and the write end of one pipe? */
static int pipe_ends(int r, int w)
{
	struct stat a, b;

	return r >= 0 && w >= 0 && r != w && fstat(r, &a) == 0 && fstat(w, &b) == 0 && S_ISFIFO(a.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino && (fcntl(r, F_GETFL) & O_ACCMODE) == O_RDONLY &&
	       (fcntl(w, F_GETFL) & O_ACCMODE) == O_WRONLY;
}

static void drop_pipe(void)
{
	for (int i = 0; unw_pipe && i < 2; i++)
		if (unw_pipe[i] >= 0) {
			close(unw_pipe[i]);
			unw_pipe[i] = -1;
		}
}

/* After libunwind's initialization: the one candidate that became a pipe. */
static void learn_pipe(void)
{
	int *hit = NULL, hits = 0;

	for (int i = 0; i < ncand; i++)
		if ((cand[i][0] != -1 || cand[i][1] != -1) && pipe_ends(cand[i][0], cand[i][1])) {
			hit = cand[i];
			hits++;
		}
	if (hits == 1 && pthread_atfork(NULL, NULL, drop_pipe) == 0)
		unw_pipe = hit;
}

/* Loaded by the first report, with the program's holes held
 * (keepout.h): the dlopen and libunwind's first use, which makes its own
 * first-use mappings and opens its pipe (learned here). */
static int load_unwind(void)
{
	unw_context_t uc;
	unw_cursor_t c;
	int ok, up;

	rwc_keepout_begin();
	ok = load_unwind_here();
	if (ok) {
		dl_iterate_phdr(find_unset, NULL);
		up = U.getcontext(&uc) == 0 && U.init_local(&c, &uc) >= 0;
		learn_pipe();
		if (up)
			U.step(&c);
		drop_pipe();
	}
	rwc_keepout_end();
	return ok;
}

/* Loads libunwind (MAY_LOAD) and starts a cursor here: 1, or 0 when
 * libunwind is not available.  Inlined: the context must be taken in the
 * frame that goes on to unwind. */
static inline __attribute__((always_inline)) int begin(unw_context_t *uc, unw_cursor_t *c, int may_load)
{
	int ok;

	if (!may_load || !rwc_once(&once, load_unwind))
		return 0;
	ok = U.getcontext(uc) == 0 && U.init_local(c, uc) >= 0;
	if (!ok)
		drop_pipe();
	return ok;
}

int rwc_backtrace(uintptr_t *pcs, int max, uintptr_t caller, int may_load)
{
	unw_context_t uc;
	unw_cursor_t c;
	int n = 0, found = 0;

	if (max <= 0)
		return 0;
	/* Outside the report lock (a signal handler, a vfork child, a nested
	 * report): the caller only, no libunwind. */
	if (!begin(&uc, &c, may_load)) {
		pcs[0] = caller;
		return 1;
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
	drop_pipe();
	return n;
}
