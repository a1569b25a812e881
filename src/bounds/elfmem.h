/* elfmem.h: the memory of a module's objects' load (elfobjs.c,
 * objcache.c): kept blocks from the bottom of own memory's part for
 * globals (ownmem.h), scratch from its top, all scratch given back by
 * rwc_elf_load_end (elfobjs.h); past the part, the own heap, whose new
 * mappings must not land in the program's holes: then the load holds
 * them (keepout.h).  Under the load lock. */
#ifndef RWC_ELFMEM_H
#define RWC_ELFMEM_H

#include <stddef.h>

/* Memory that stays (names of modules), for a load: from the part of own
 * memory for globals, else the own heap.  Every load, this included,
 * ends with rwc_elf_load_end (the scratch given back, the program's
 * holes no longer held). */
void *rwc_elf_keep(size_t n);
void rwc_elf_load_end(void);

/* N bytes (rounded to 16) fit in what the part has left. */
int rwc_elf_fits(size_t n);
/* N bytes of the part, kept (KEEP) or scratch; NULL when it has no room
 * (nothing else is tried: no own heap, no keepout, so safe where a report
 * runs, a signal handler's included). */
void *rwc_elf_from_part(size_t n, int keep);
/* Scratch: from the part, else the own heap; given back by
 * rwc_elf_give (the part's all at once, at the load's end). */
void *rwc_elf_take(size_t n);
void rwc_elf_give(void *p);
/* The last kept block P of N bytes now takes USED: the rest of the part
 * goes back; a block of the own heap stays as it is, or goes when unused. */
void rwc_elf_keep_trim(void *p, size_t n, size_t used);

#endif
