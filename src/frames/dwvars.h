/* dwvars.h: the stack variable that holds an address, from the DWARF of
 * its frame's module (libdw, dwlib.h).  A module's DWARF is read once, on
 * the first buffer found in one of its frames, and only where the module
 * file has it; the variables in scope at a pc are worked out once and
 * cached (the library's own heap; the modules: dwmods.h).  Under the
 * report lock only (rwc_load_lock, context.h: not in a signal handler);
 * allocates; opens the module's file and closes it before returning (its
 * mapping stays). */
#ifndef RWC_DWVARS_H
#define RWC_DWVARS_H

#include <stddef.h>
#include <stdint.h>

#include "base/checks.h"

/* A frame as the walk found it: PC its return address, CFA the sp its
 * caller had before the call, SP its own sp (0: unknown), INDEX its
 * number (0: the caller of the I/O call). */
struct rwc_dw_frame {
	uintptr_t pc, cfa, sp;
	int index;
};

/* The variable (local or parameter; the outermost one, for a struct) of
 * frame F whose storage holds A: 1 when found, with OUT set to it (kind
 * RWC_HOLDER_VARIABLE, lo/hi its storage, limit hi, pc, index, name, type,
 * decl_file, decl_line, function) and, when [A, A+N) runs past it into the
 * next variable up, into/into_type that one.  0: none known (no DWARF, no
 * variable there, a location in a register the walk does not know); OUT
 * untouched. */
int rwc_dwvars_find(const struct rwc_dw_frame *f, uintptr_t a, size_t n, struct rwc_bounds *out);

#endif
