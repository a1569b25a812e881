/* real.c: binding the real functions (see real.h).  Binding reads the
 * modules' symbol tables (symscope.h), else calls dlsym, which may
 * allocate; it runs from the constructor, or once per symbol on its first
 * call.  A symbol that cannot be found is fatal,
 * with a message naming it. */
#include "config.h"

#include "base/real.h"
#include "base/common.h"

#include <stddef.h>
#include <stdio.h>

#include "base/symscope.h"

void *rwc_real_ptr[RWC_REAL_COUNT] RWC_START_DATA;
__thread int rwc_binding __attribute__((tls_model("initial-exec")));

/* The names as one pool of characters and 16-bit offsets: read-only data
 * the loader never relocates (an array of pointers would be 118
 * relocations written into a page of the library at every start). */
static const struct real_pool {
#define RWC_ENTRY_X_(n) char n_##n[sizeof #n];
#include "base/entry_names.h"
	RWC_MISC_REALS(RWC_ENTRY_X_)
#undef RWC_ENTRY_X_
} real_pool = {
#define RWC_ENTRY_X_(n) #n,
#include "base/entry_names.h"
	RWC_MISC_REALS(RWC_ENTRY_X_)
#undef RWC_ENTRY_X_
};

static const unsigned short real_off[RWC_REAL_COUNT] = {
#define RWC_ENTRY_X_(n) [RWC_IDX_##n] = offsetof(struct real_pool, n_##n),
#include "base/entry_names.h"
	RWC_MISC_REALS(RWC_ENTRY_X_)
#undef RWC_ENTRY_X_
};

_Static_assert(sizeof(struct real_pool) <= 0xffff, "16-bit offsets");

const char *rwc_real_name(unsigned idx)
{
	return (const char *)&real_pool + real_off[idx];
}

static void die_missing(const char *name)
{
	/* dprintf writes through glibc's internal write, never ours. */
	dprintf(2, "rwcheck: fatal: cannot find the real %s() with dlsym(RTLD_NEXT); "
		"is librwcheck.so loaded with LD_PRELOAD?\n", name);
	abort();
}

/* The allocator family is bound as the loader binds libc's own calls to
 * it (symscope.h): the next module after this one that defines the name
 * for libc's version of it — glibc's libc_malloc_debug.so too, which
 * dlsym(RTLD_NEXT) skips.  So are the exec family (entry/exec.c), which a
 * vfork child binds, and fork (entry/fork.c), which a signal handler may
 * call first: symscope takes no lock and allocates nothing. */
static void *bind_next(unsigned idx, const char *name)
{
	const struct link_map *m;
	void *p = NULL;

	m = rwc_sym_first(name, rwc_libc_symver(name), rwc_sym_self(), &p);
	if (m && idx - RWC_IDX_malloc <= RWC_IDX_posix_spawnp - RWC_IDX_malloc)
		return p;
	/* The rest as dlsym(RTLD_NEXT) finds them, by the loader's rule for
	 * a reference of libc's version (a definition under another version
	 * only, which dlsym's default lookup could take, is passed over):
	 * taken when the module is libc or one before it in load order (those
	 * were all loaded at start, in the global scope; a library dlopened
	 * with RTLD_LOCAL, which dlsym would skip, comes after libc), without
	 * dlsym's cost (its error handling's pages of libc) and its lock: so
	 * also from a signal handler. */
	if (m && rwc_sym_upto_libc(m))
		return p;
	return dlsym(RTLD_NEXT, name);
}

void *rwc_real_bind(unsigned idx)
{
	void *p;

	rwc_binding++;
	p = bind_next(idx, rwc_real_name(idx));
	rwc_binding--;
	if (!p) {
		/* Optional in older glibc: treat as absent, never called. */
		if (idx == RWC_IDX_pkey_mprotect || idx == RWC_IDX_reallocarray)
			return NULL;
		die_missing(rwc_real_name(idx));
	}
	__atomic_store_n(&rwc_real_ptr[idx], p, __ATOMIC_RELEASE);
	return p;
}

void rwc_real_bind_forkset(void)
{
	static const unsigned short set[] = {
		RWC_IDX_read, RWC_IDX_write, RWC_IDX_readv, RWC_IDX_writev, RWC_IDX_execve,
		RWC_IDX_execv, RWC_IDX_execvp, RWC_IDX_execvpe, RWC_IDX_fexecve,
	};

	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
		(void)rwc_real_get(set[i]);
}

RWC_START_CODE void rwc_real_bind_early(void)
{
#ifndef DLFO_STRUCT_HAS_EH_DBASE
	/* Before glibc 2.35 (no _dl_find_object), finding libc's module takes
	 * the loader's lock (dladdr): write() is what signal handlers call,
	 * mmap() and syscall() what the first need of the library's own
	 * memory makes (ownmem.c): bound now, never from a handler.  (From
	 * 2.35 every bind is lock-free and each binds on first use: a start
	 * touches no symbol table of libc.) */
	(void)rwc_real_get(RWC_IDX_write);
	(void)rwc_real_get(RWC_IDX_mmap);
	(void)rwc_real_get(RWC_IDX_syscall);
#endif
}

ssize_t rwc_read_real(int fd, void *buf, size_t n)
{
	return REAL(read)(fd, buf, n);
}
