/* vouch.c: memory the map view calls good without asking the kernel (see
 * vouch.h).  A process's first checks otherwise each open
 * /proc/self/maps and ask it (mapview.c's light path, ~5 us): the
 * library's own reads of a module's unwind tables and ELF header, a
 * buffer in a module's data, one on the main thread's stack.
 *
 *  - A loaded module: its PT_LOAD segments, as the loader mapped them
 *    (found by _dl_find_object, its program headers read from its first
 *    page: no lock), each whole pages with the segment's permissions;
 *    no write into PT_GNU_RELRO (read-only once relocated).
 *  - The main thread's stack from this frame up to where the process
 *    started (__libc_stack_end), when this frame is on it: one mapping
 *    the kernel grows down and never shrinks.
 *
 * Either holds only where the program did not change the map itself
 * (mapnews.h rwc_note_cut: munmap, mprotect, mremap, MAP_FIXED, ...);
 * a change by a raw system call of the program's own is not seen. */
#include "config.h"

#include "mapview/vouch.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "base/common.h"
#include "base/pagesize.h"
#include "mapview/mapnews.h"
#include "mapview/segrule.h"
#include "mapview/tcache.h"

struct seek {
	uintptr_t lo, hi, pg, run_lo, run_hi;
	unsigned ok;
};

/* The program headers of the module whose first page is START (the
 * loader's l_map_start), loaded at BIAS: read from its ELF header there,
 * taken only when its first segment is that page from file offset 0 and
 * they lie in it; NULL else. */
static const ElfW(Phdr) *headers(uintptr_t start, uintptr_t bias, uintptr_t pg, int *phnum)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)start;
	const ElfW(Phdr) *ph, *first = NULL;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_phentsize != sizeof *ph || eh->e_phoff > pg || eh->e_phnum > (pg - eh->e_phoff) / sizeof *ph)
		return NULL;
	ph = (const ElfW(Phdr) *)(start + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (!first || ph[i].p_vaddr < first->p_vaddr))
			first = &ph[i];
	if (!first || first->p_offset != 0 || rwc_seg_down(bias + first->p_vaddr, pg) != start ||
	    !(first->p_flags & PF_R))
		return NULL;
	*phnum = eh->e_phnum;
	return ph;
}

/* What the loader mapped there: the needs served, 0 not a module's.
 * Without a lock (no dl_iterate_phdr: a signal handler may have
 * interrupted the loader): the module found by _dl_find_object, its
 * program headers read where the loader mapped them. */
static unsigned module_says(struct seek *k)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE /* glibc 2.35+ */
	struct dl_find_object d;
	const ElfW(Phdr) *ph;
	uintptr_t start;
	int n = 0;

	if (_dl_find_object((void *)k->lo, &d) != 0 || !d.dlfo_link_map || k->hi > (uintptr_t)d.dlfo_map_end)
		return 0;
	start = (uintptr_t)d.dlfo_map_start;
	if (start & (k->pg - 1) || rwc_cut_touches(start, start + k->pg) ||
	    !(ph = headers(start, d.dlfo_link_map->l_addr, k->pg, &n)))
		return 0;
	return rwc_seg_rule(ph, n, d.dlfo_link_map->l_addr, k->pg, k->lo, k->hi, &k->run_lo, &k->run_hi);
#else
	(void)k;
	return 0;
#endif
}

extern void *__libc_stack_end;

uintptr_t rwc_main_stack_top(uintptr_t sp)
{
	uintptr_t end = (uintptr_t)__atomic_load_n(&__libc_stack_end, __ATOMIC_RELAXED);

	return sp < end && end - sp < ((uintptr_t)64 << 20) ? end : 0;
}

/* The main thread's stack from this frame to its start, when this frame
 * is on it. */
static unsigned stack_says(struct seek *k)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0), top = rwc_main_stack_top(sp);

	if (!top || k->lo < sp || k->hi > top)
		return 0;
	k->run_lo = rwc_seg_down(sp, k->pg);
	k->run_hi = top;
	return RWC_NEED_READ | RWC_NEED_WRITE;
}

int rwc_vouch_off;

int rwc_vouch(uintptr_t lo, size_t len, unsigned need)
{
	uint64_t g = __atomic_load_n(&rwc_gen, __ATOMIC_ACQUIRE);
	struct seek k = {lo, lo + len, rwc_page_size(), 0, 0, 0};
	unsigned ok;

	if (rwc_vouch_off || len == 0 || len > UINTPTR_MAX - lo || rwc_cut_touches(lo, lo + len))
		return 0;
	ok = stack_says(&k);
	if (!ok)
		ok = module_says(&k);
	if (!ok || (ok & need) != need || rwc_cut_touches(k.run_lo, k.run_hi))
		return 0;
	rwc_tcache_fill(g, k.run_lo, k.run_hi, ok);
	return 1;
}
