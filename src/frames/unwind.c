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
	int (*get_save_loc)(unw_cursor_t *, int, unw_save_loc_t *);
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
	*(void **)&U.get_save_loc = dlsym(h, RWC_STR(unw_get_save_loc));
	return U.getcontext && U.init_local && U.step && U.get_reg && U.get_save_loc;
}

/* Loaded by a report or a stack walk: never into a hole the program made
 * (keepout.h). */
static int load_unwind(void)
{
	int ok;

	rwc_keepout_begin();
	ok = load_unwind_here();
	rwc_keepout_end();
	return ok;
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
 * again, which the next drop closes.  Our uses run under the report lock
 * (or in the constructor, before the program runs), one at a time, so
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

/* Loads libunwind (MAY_LOAD), learns its pipe at the first use, and
 * starts a cursor here: 1, or 0 when libunwind is not available.  Inlined:
 * the context must be taken in the frame that goes on to unwind. */
static inline __attribute__((always_inline)) int begin(unw_context_t *uc, unw_cursor_t *c, int may_load)
{
	static int learned;
	int first = 0, ok;

	if (!may_load || !rwc_once(&once, load_unwind))
		return 0;
	if (!learned) {
		learned = first = 1;
		dl_iterate_phdr(find_unset, NULL);
	}
	ok = U.getcontext(uc) == 0 && U.init_local(c, uc) >= 0;
	if (first)
		learn_pipe();
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

/* The lowest save slot at or above A below LIMIT, among the registers the
 * frame below cursor C saved (C is at its caller). */
static uintptr_t first_saved(unw_cursor_t *c, uintptr_t a, uintptr_t limit)
{
	for (int r = 0; r <= UNW_REG_LAST; r++) {
		unw_save_loc_t sl;

		if (U.get_save_loc(c, r, &sl) == 0 && sl.type == UNW_SLT_MEMORY &&
		    (uintptr_t)sl.u.addr >= a && (uintptr_t)sl.u.addr < limit)
			limit = (uintptr_t)sl.u.addr;
	}
	return limit;
}

void rwc_unwind_prepare(void)
{
	unw_context_t uc;
	unw_cursor_t c;

	/* From the constructor: the program has made no hole yet. */
	if (rwc_once(&once, load_unwind_here) && begin(&uc, &c, 1)) {
		U.step(&c); /* libunwind's own first-use allocations, made now */
		drop_pipe();
	}
}

int rwc_stack_walk(uintptr_t a, uintptr_t sp0, int to_top, struct rwc_stack_walk *w)
{
	unw_context_t uc;
	unw_cursor_t c;
	unw_word_t sp = 0, ip;
	int found = 0;

	w->nchain = 0;
	w->top = 0;
	w->b.kind = RWC_HOLDER_NONE;
	if (!begin(&uc, &c, 1))
		return -1;
	/* Out of the library's own frames, to the frame whose sp is SP0. */
	for (int steps = 0;; steps++) {
		if (U.get_reg(&c, UNW_REG_SP, &sp) < 0 || sp > sp0 || steps > 32 || (sp != sp0 && U.step(&c) <= 0))
			goto unknown;
		if (sp == sp0)
			break;
	}
	for (int i = 0; i < 256; i++) {
		uintptr_t lo = (uintptr_t)sp, hi, pc;
		unw_save_loc_t sl;
		int r;

		if (U.get_reg(&c, UNW_REG_IP, &ip) < 0)
			goto unknown;
		pc = (uintptr_t)ip;
		r = U.step(&c);
		if (r <= 0 || U.get_reg(&c, UNW_REG_SP, &sp) < 0 || (uintptr_t)sp <= lo) {
			w->top = lo; /* the outermost frame: no buffer of the program here */
			break;
		}
		hi = (uintptr_t)sp; /* the frame's cfa */
		if (found)
			continue; /* on to the top */
		if (a < lo) {
			if (!to_top)
				break;
			found = -1; /* in no frame */
			continue;
		}
		if (a < hi) {
			w->b.kind = RWC_HOLDER_FRAME;
			w->b.lo = lo;
			w->b.hi = hi;
			w->b.limit = first_saved(&c, a, hi);
			w->b.pc = pc;
			w->b.index = i;
			found = 1;
			if (!to_top)
				break;
			continue;
		}
		if (w->nchain >= 0 && w->nchain < RWC_STACK_CHAIN &&
		    U.get_save_loc(&c, UNW_REG_IP, &sl) == 0 && sl.type == UNW_SLT_MEMORY) {
			w->slot[w->nchain] = (uintptr_t)sl.u.addr;
			w->val[w->nchain++] = *(const uintptr_t *)(uintptr_t)sl.u.addr;
		} else {
			w->nchain = -1; /* not cacheable */
		}
	}
	drop_pipe();
	return found == 1;
unknown:
	drop_pipe();
	return -1;
}
