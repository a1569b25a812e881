/* elfmem.c: the memory of a module's objects' load (see elfmem.h):
 * kept blocks and scratch from the part of own memory for globals, else
 * the own heap. */
#include "config.h"

#include "bounds/elfmem.h"

#include "base/ownmem.h"
#include "frames/keepout.h"
#include "mapview/ownheap.h"

/* A load's memory: the part of own memory for globals (ownmem.h), kept
 * blocks from its bottom up, scratch from its top down (all given back
 * by rwc_elf_load_end); past it, the own heap, whose new mappings must
 * not land in the program's holes: then the load holds them (keepout.h). */
static struct {
	size_t kept, scratch; /* bytes of the part in use at each end */
	int kept_out;         /* this load holds the program's holes */
} A;

static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* N bytes (rounded to 16) fit in what the part has left. */
int rwc_elf_fits(size_t n)
{
	return rwc_ownmem_part(RWC_OWN_GLOBALS) && round16(n) <= RWC_OWN_GLOBALS_SIZE - A.kept - A.scratch;
}

/* N bytes of the part, kept (KEEP) or scratch; NULL when it has no room
 * (nothing else is tried: no own heap, no keepout, so safe where a report
 * runs, a signal handler's included). */
void *rwc_elf_from_part(size_t n, int keep)
{
	char *part = rwc_ownmem_part(RWC_OWN_GLOBALS);

	if (!n || !rwc_elf_fits(n))
		return NULL;
	n = round16(n);
	if (keep) {
		A.kept += n;
		return part + A.kept - n;
	}
	A.scratch += n;
	return part + RWC_OWN_GLOBALS_SIZE - A.scratch;
}

static void *alloc(size_t n, int keep)
{
	void *p = rwc_elf_from_part(n, keep);

	if (p || !n)
		return p;
	if (!A.kept_out) {
		rwc_keepout_begin();
		A.kept_out = 1;
	}
	return rwc_ownheap_alloc(round16(n), 16);
}

void *rwc_elf_take(size_t n)
{
	return alloc(n, 0);
}

/* Scratch of the part is given back all at once, at the end of the load. */
void rwc_elf_give(void *p)
{
	char *part = rwc_ownmem_part(RWC_OWN_GLOBALS);

	if (p && !(part && (char *)p >= part && (char *)p < part + RWC_OWN_GLOBALS_SIZE))
		rwc_ownheap_free(p);
}

void *rwc_elf_keep(size_t n)
{
	return alloc(n, 1);
}

/* The last kept block P of N bytes now takes USED: the rest of the part
 * goes back; a block of the own heap stays as it is, or goes when unused. */
void rwc_elf_keep_trim(void *p, size_t n, size_t used)
{
	char *part = rwc_ownmem_part(RWC_OWN_GLOBALS);

	n = round16(n);
	used = round16(used);
	if (part && (char *)p + n == part + A.kept && used <= n)
		A.kept -= n - used;
	else if (!used)
		rwc_elf_give(p);
}

void rwc_elf_load_end(void)
{
	A.scratch = 0;
	if (A.kept_out)
		rwc_keepout_end();
	A.kept_out = 0;
}

