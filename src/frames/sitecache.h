/* sitecache.h: the call-site cache across processes (RWCHECK_CACHE, a
 * directory; the wrapper makes one per run).  What dwvars.c works out
 * from a module's DWARF for a call site (the stack variables in scope,
 * sitefmt.h) is appended to the module's file there, named by its
 * build-id, by one write; a later process running the same module reads
 * the file once and takes its sites from it without loading libdw or
 * reading the DWARF.  A module without a build-id, a directory that
 * cannot be read or written, a record that does not check: no cache, the
 * DWARF as before.  Under the load lock only (context.h: not in a signal
 * handler); allocates (the own heap); opens and closes a file per use,
 * errno kept. */
#ifndef RWC_SITECACHE_H
#define RWC_SITECACHE_H

#include <stdint.h>

#include "frames/sitefmt.h"

/* The cached record of the call site at PC (a return address; PC - 1 is
 * in the module): 1 with *REC (kept until rwc_sitecache_drop) and *N its
 * variables (rwc_sf_vars), or 0. */
int rwc_sitecache_get(uintptr_t pc, const unsigned char **rec, unsigned *n);

/* Appends the site at PC with its N variables V to its module's file. */
void rwc_sitecache_put(uintptr_t pc, const struct rwc_sf_var *v, unsigned n);

/* Forgets the modules and their records (the loader removed a module:
 * another may come to sit at the same addresses). */
void rwc_sitecache_drop(void);

#endif
