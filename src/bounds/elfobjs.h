/* elfobjs.h: a module's data objects from its ELF file: every STT_OBJECT
 * symbol with a size, outside TLS and code, from .symtab where the file
 * has one, else .dynsym; sorted by address, in the library's own memory
 * (ownmem.h's part for them, else the own heap).  Loads allocate and read
 * the file: never in a signal handler; the caller serializes them. */
#ifndef RWC_ELFOBJS_H
#define RWC_ELFOBJS_H

#include <stddef.h>
#include <stdint.h>

#include "bounds/elfmem.h" /* rwc_elf_keep, rwc_elf_load_end */
#include "bounds/gobjs.h"


/* The objects of the module whose file is PATH, loaded at BIAS (the
 * link map's l_addr) over [START, END) (_dl_find_object's extent), each
 * inside it.  The file must be the one in memory: its ELF and program
 * headers equal to those mapped at START.  Objects that overlap are
 * merged into the first (no object is judged smaller than any symbol
 * covering it says).  Returns the count (0: none or failure), *OUT the
 * array in kept memory (rwc_elf_keep); each name an offset in the
 * string table NM tells of, read by rwc_elf_name when a report needs it. */
struct rwc_elf_names; /* below */
size_t rwc_elf_objects(const char *path, uintptr_t bias, uintptr_t start, uintptr_t end,
		       struct rwc_gobj **out, struct rwc_elf_names *nm);

/* Where the objects' names are: the string table of the file, as the
 * file was when they were read. */
struct rwc_elf_names {
	const char *file;         /* its absolute name (kept memory), or as given */
	uint64_t off, size;       /* the string table in the file */
	uint64_t dev, ino, fsize; /* the file */
	int64_t mtime_s, mtime_ns;
};

/* The name NAME of an object of rwc_elf_objects: as it is, or when it is
 * still an offset (RWC_GOBJ_OFFSET) read from NM's file (the one read
 * then: the same file, size and time) into kept memory; NULL when not to
 * be had (a name of 4 KiB or more included), with *AGAIN 1 when that may
 * pass (no descriptor left, an interrupted or failed read).  No
 * allocation but the part for globals, no lock of its own: under the
 * report lock (rwc_libs_lock), a signal handler's too. */
const char *rwc_elf_name(const struct rwc_elf_names *nm, const char *name, int *again);

#endif
