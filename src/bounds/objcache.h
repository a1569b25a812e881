/* objcache.h: a module's global objects across processes (RWCHECK_CACHE,
 * the directory the call-site cache uses too, frames/sitecache.h).  The
 * sorted, merged table elfobjs.c works out from a module's symbol table
 * (a few hundred thousand instructions and a read of the whole table for
 * a program with thousands of objects, in every process that needs a
 * global verdict) is written once per module file, named by its build-id,
 * rwcheck's version and the file's identity (device, inode, size, time);
 * a later process running the same file reads it instead of the symbol
 * table.  A file that does not check (magic, the file's identity, length,
 * checksum, every object inside the module and in order): the symbol
 * table as before, and the file replaced.  Under the load lock only; errno kept. */
#ifndef RWC_OBJCACHE_H
#define RWC_OBJCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "bounds/gobjs.h"
#include "bounds/objfmt.h"

/* The module with build-id ID (hex) whose file is F, loaded at BIAS over
 * [START, END): its table read from the cache into memory from KEEP
 * (elfobjs.h's rwc_elf_keep), the count; 0 when there is none, then
 * *STALE when a file in its place is not a good one (to be replaced). */
size_t rwc_objcache_get(const char *id, const struct rwc_oc_ident *f, uintptr_t bias, uintptr_t start,
			uintptr_t end, void *(*keep)(size_t), struct rwc_gobj **table, uint64_t *stroff,
			uint64_t *strsize, int *stale);
/* Writes the module's table O[0..n) to the cache (whole, or nothing: an
 * unnamed file linked in, else a file of a name of its own renamed;
 * STALE: the file in its place replaced); nothing where the process has
 * a file size limit or TAKE (scratch memory, given back by GIVE) has no
 * room. */
void rwc_objcache_put(const char *id, const struct rwc_oc_ident *f, uintptr_t bias, const struct rwc_gobj *o,
		      size_t n, uint64_t stroff, uint64_t strsize, int stale, void *(*take)(size_t),
		      void (*give)(void *));

#endif
