/* elfobjs.h: a module's data objects from its ELF file: every STT_OBJECT
 * symbol with a size, outside TLS and code, from .symtab where the file
 * has one, else .dynsym; sorted by address, in the library's own memory
 * (ownmem.h's part for them, else the own heap).  Loads allocate and read
 * the file: never in a signal handler; the caller serializes them. */
#ifndef RWC_ELFOBJS_H
#define RWC_ELFOBJS_H

#include <stddef.h>
#include <stdint.h>

/* One object at its run-time address: [lo, hi). */
struct rwc_gobj {
	uintptr_t lo, hi;
	const char *name;
};

/* Memory that stays (names of modules), for a load: from the part of own
 * memory for globals, else the own heap.  Every load, this included,
 * ends with rwc_elf_load_end (the scratch given back, the program's
 * holes no longer held). */
void *rwc_elf_keep(size_t n);
void rwc_elf_load_end(void);

/* The objects of the module whose file is PATH, loaded at BIAS (the
 * link map's l_addr) over [START, END) (_dl_find_object's extent), each
 * inside it.  The file must be the one in memory: its ELF and program
 * headers equal to those mapped at START.  Objects that overlap are
 * merged into the first (no object is judged smaller than any symbol
 * covering it says).  Returns the count (0: none or failure), *OUT the
 * array (names in one block after it, freed with it). */
size_t rwc_elf_objects(const char *path, uintptr_t bias, uintptr_t start, uintptr_t end,
		       struct rwc_gobj **out);

/* The index of the object that holds A in the sorted OBJ[0..n), or -1;
 * then [*gap_lo, *gap_hi) is the run without objects around A (clipped
 * to [start, end)).  Pure; async-signal-safe. */
long rwc_gobj_find(const struct rwc_gobj *obj, size_t n, uintptr_t a, uintptr_t start,
		   uintptr_t end, uintptr_t *gap_lo, uintptr_t *gap_hi);

#endif
