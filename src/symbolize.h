/* symbolize.h: function names (symbol table, static functions too) and
 * file:line (DWARF) for report frames, with a lazily dlopen()ed libdw.
 * Report path only, one call at a time (report.c's lock: libelf is not
 * thread-safe): allocates, opens files (closed before it returns). */
#ifndef RWC_SYMBOLIZE_H
#define RWC_SYMBOLIZE_H

#include <stdint.h>

struct rwc_frame {
	uintptr_t pc;        /* return address */
	uintptr_t module_off;
	char module[256];    /* "" if unknown */
	char function[256];  /* "" if unknown */
	char file[512];      /* "" if no DWARF line info */
	int line;
};

/* Fills the names of FRAMES[0..n) (pc set, the strings empty, line 0).  Where a call was inlined from
 * a system header (glibc's fortified read(), say), file:line is the call
 * site in the program's own source. */
void rwc_symbolize(struct rwc_frame *frames, int n);

/* True for the paths of system headers (/usr/include/...). */
int rwc_is_system_header(const char *path);

#endif
