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

/* Symbolizes the return addresses PCS[0..n) into FRAMES[0..cap): a
 * function inlined at an address gets a frame of its own (innermost
 * first), as in valgrind's and ASan's reports; functions inlined from
 * system headers (glibc's fortified read(), say) do not, so that file:line
 * is the call site in the program's own source.  Returns the count. */
int rwc_symbolize(const uintptr_t *pcs, int n, struct rwc_frame *frames, int cap);

/* True for the paths of system headers (/usr/include/...). */
int rwc_is_system_header(const char *path);

#endif
