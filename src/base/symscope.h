/* symscope.h: which module defines a name, by the loader's rules, read
 * from the modules' own dynamic sections (no dlsym, no allocation: safe
 * from inside another allocator's malloc).
 *
 * What the allocator family needs: a program's malloc calls reach the
 * first module, in load order, that defines malloc in a way a reference
 * malloc@GLIBC_x (libc's own) accepts — an unversioned definition, or one
 * of that version, even a non-default one (glibc's libc_malloc_debug.so
 * defines malloc under that version only).  A non-PIE executable's own
 * PLT entry for malloc (an undefined symbol with an address, what dlsym
 * may answer) is never that module. */
#ifndef RWC_SYMSCOPE_H
#define RWC_SYMSCOPE_H

#include <link.h>

/* The version name libc's default definition of NAME has ("GLIBC_2.2.5"
 * on x86-64), or NULL. */
const char *rwc_libc_symver(const char *name);

/* The first module after AFTER (NULL: from the first module) that defines
 * NAME for a reference of version VER (NULL: unversioned); *ADDR its
 * definition.  NULL when none does. */
const struct link_map *rwc_sym_first(const char *name, const char *ver, const struct link_map *after,
				     void **addr);

/* libc's module (the one defining gnu_get_libc_version), or NULL. */
const struct link_map *rwc_sym_libc(void);
/* Whether M is libc's module or comes before it after this library in
 * load order (modules loaded at start, in the global scope). */
int rwc_sym_upto_libc(const struct link_map *m);

/* This library's own module. */
const struct link_map *rwc_sym_self(void);

/* The module whose image holds P, or NULL: glibc's _dl_find_object
 * (lock-free, a binary search) where it can answer, else dladdr1 (which
 * scans the module's whole symbol table: ~300,000 instructions for
 * libc). */
const struct link_map *rwc_module_of(const void *p);

#endif
