/* segrule.c: which needs a loaded module's segments serve at a range
 * (see segrule.h).  Pure. */
#include "config.h"

#include "mapview/segrule.h"

#include <link.h>

#include "base/common.h"

uintptr_t rwc_seg_down(uintptr_t a, uintptr_t pg)
{
	return a & ~(pg - 1);
}

uintptr_t rwc_seg_up(uintptr_t a, uintptr_t pg)
{
	return a > UINTPTR_MAX - (pg - 1) ? rwc_seg_down(UINTPTR_MAX, pg) : (a + pg - 1) & ~(pg - 1);
}

/* Clips the run [*rl, *rh) around [lo, hi) to miss [x, y). */
static void clip(uintptr_t x, uintptr_t y, uintptr_t lo, uintptr_t hi, uintptr_t *rl, uintptr_t *rh)
{
	if (y <= lo && y > *rl)
		*rl = y;
	if (x >= hi && x < *rh)
		*rh = x;
}

unsigned rwc_seg_rule(const void *phv, int phnum, uintptr_t bias, uintptr_t pg, uintptr_t lo, uintptr_t hi,
			    uintptr_t *run_lo, uintptr_t *run_hi)
{
	const ElfW(Phdr) *ph = phv, *s = NULL;
	unsigned ok;

	for (int i = 0; i < phnum && !s; i++)
		if (ph[i].p_type == PT_LOAD && rwc_seg_down(bias + ph[i].p_vaddr, pg) <= lo &&
		    hi <= rwc_seg_up(bias + ph[i].p_vaddr + ph[i].p_memsz, pg) && ph[i].p_memsz)
			s = &ph[i];
	if (!s)
		return 0;
	*run_lo = rwc_seg_down(bias + s->p_vaddr, pg);
	*run_hi = rwc_seg_up(bias + s->p_vaddr + s->p_memsz, pg);
	ok = ((s->p_flags & PF_R) ? RWC_NEED_READ : 0) | ((s->p_flags & PF_W) ? RWC_NEED_WRITE : 0);
	for (int i = 0; i < phnum; i++) {
		uintptr_t x = rwc_seg_down(bias + ph[i].p_vaddr, pg), y = rwc_seg_up(bias + ph[i].p_vaddr + ph[i].p_memsz, pg);

		if ((ph[i].p_type != PT_LOAD && ph[i].p_type != PT_GNU_RELRO) || &ph[i] == s || !ph[i].p_memsz)
			continue;
		if (x < hi && y > lo) { /* another segment's page, or the RELRO */
			if (ph[i].p_type == PT_LOAD)
				return 0;
			ok &= ~(unsigned)RWC_NEED_WRITE;
		} else {
			clip(x, y, lo, hi, run_lo, run_hi);
		}
	}
	return ok;
}

