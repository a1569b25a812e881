/* demangle.h: C++ function names as the program's own C++ runtime
 * prints them ("_Z14sso_string_badv" -> "sso_string_bad()"), as valgrind
 * and ASan show them.  Report time only (the demangler allocates). */
#ifndef RWC_DEMANGLE_H
#define RWC_DEMANGLE_H

#include <stddef.h>

/* The C++ ABI's demangler (__cxa_demangle's type). */
typedef char *(*rwc_demangler)(const char *mangled, char *buf, size_t *len, int *status);

/* Writes NAME into OUT (CAP bytes, cut to fit, NUL-terminated), demangled
 * by DEM when it is a mangled C++ name ("_Z...", a version suffix
 * "@@GLIBCXX_3.4" kept) that DEM takes; as it is otherwise.  The whole
 * name is demangled before any cut (a mangled name cut short may still
 * demangle, to another signature).  DEM's result goes to FREE_FN. */
void rwc_demangle_with(rwc_demangler dem, void (*free_fn)(void *), const char *name, char *out, size_t cap);

/* The same with the process's own __cxa_demangle (libstdc++, where the
 * program has it loaded: every C++ program); as it is without one. */
void rwc_demangle(const char *name, char *out, size_t cap);

#endif
