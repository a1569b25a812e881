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

#include "keepout.h"
#include "once.h"

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

/* Loads libunwind (MAY_LOAD), learns its pipe at the first use, and
 * starts a cursor here: 1, or 0 when libunwind is not available.  Inlined:
 * the context must be taken in the frame that goes on to unwind. */
static inline __attribute__((always_inline)) int begin(unw_context_t *uc, unw_cursor_t *c, int may_load)
{
	static int learned;
	unsigned char before[FD_SCAN];
	int first = 0, ok;

	if (!may_load || !rwc_once(&once, load_unwind))
		return 0;
	if (!learned) {
		first = 1;
		for (int fd = 0; fd < FD_SCAN; fd++)
			before[fd] = fcntl(fd, F_GETFD) != -1;
	}
	ok = U.getcontext(uc) == 0 && U.init_local(c, uc) >= 0;
	if (ok && first) {
		learned = 1;
		learn_pipe(before);
	}
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
