/* symbolize.h: function names (symbol table, static functions too) and
 * file:line (DWARF) for report frames, with a lazily dlopen()ed libdw.
 * Report path only, one call at a time (the report lock, context.h:
 * libelf is not thread-safe): allocates, opens files (closed before it
 * returns). */
#ifndef RWC_SYMBOLIZE_H
#define RWC_SYMBOLIZE_H

#include <stdint.h>
#include <sys/resource.h>

struct rwc_frame {
	uintptr_t pc;        /* return address */
	uintptr_t module_off;
	char module[256];    /* "" if unknown */
	char function[256];  /* "" if unknown */
	char file[512];      /* "" if no DWARF line info */
	int line;
};

/* Symbolizes the return addresses PCS[0..n) into FRAMES[0..cap): every
 * function inlined at an address gets a frame of its own (innermost
 * first, each at its own line; the function that holds the code last, at
 * the line of its outermost inlined call), as in valgrind's and ASan's
 * reports; functions inlined from system headers (glibc's fortified
 * read(), say, whose code is glibc's as the library's own frames are
 * ours) do not, so that #0 is the call site in the program's own source.
 * The frames of one address share its pc.  Returns the count. */
int rwc_symbolize(const uintptr_t *pcs, int n, struct rwc_frame *frames, int cap);

/* Whether libdw may run, by the process's limits (RLIM_INFINITY: none)
 * and use in bytes: at least need to spare under each (libdw ends the
 * program when it runs out of memory). */
static inline int rwc_dw_room(unsigned long long as_limit, unsigned long long as_used,
			      unsigned long long data_limit, unsigned long long data_used,
			      unsigned long long need)
{
	return (as_limit == RLIM_INFINITY || (as_limit > as_used && as_limit - as_used >= need)) &&
	       (data_limit == RLIM_INFINITY || (data_limit > data_used && data_limit - data_used >= need));
}

/* 1 when libdw may run now, by the process's limits and the size of the
 * modules of the N addresses PCS (rwc_dw_room); it reads /proc/self/statm. */
int rwc_room_for_libdw(const uintptr_t *pcs, int n);

/* True for the paths of system headers (/usr/include/...). */
int rwc_is_system_header(const char *path);

#endif
