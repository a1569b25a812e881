/* unwind.c: backtraces with a lazily loaded libunwind (see unwind.h).
 * The load (dlopen) allocates and takes the loader's lock; the unwinding
 * itself is libunwind's local, signal-safe unw_step. */
#include "config.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "unwind.h"

#include <dlfcn.h>

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

static int load_unwind(void)
{
	void *h = dlopen(RWC_UNWIND_SONAME, RTLD_NOW | RTLD_LOCAL);

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

int rwc_backtrace(uintptr_t *pcs, int max, uintptr_t caller)
{
	unw_context_t uc;
	unw_cursor_t c;
	int n = 0, found = 0;

	if (max <= 0)
		return 0;
	if (!rwc_once(&once, load_unwind) || U.getcontext(&uc) != 0 || U.init_local(&c, &uc) < 0) {
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
	return n;
}
