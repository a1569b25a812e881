/* unwind.h: backtraces for reports.  libunwind is dlopen()ed (RTLD_LOCAL)
 * on the first report, never at start: it exports _Unwind_* and backtrace,
 * which must not take over the program's own.  Its load and its first-use
 * mappings are made with the program's holes held (keepout.h).  Report
 * path only (the stack check walks without it: stackwalk.h). */
#ifndef RWC_UNWIND_H
#define RWC_UNWIND_H

#include <stdint.h>


/* Fills PCS with up to MAX return addresses, the first being CALLER (the
 * return address into the program that called the interposed function);
 * frames of the library itself are skipped.  Without libunwind, just
 * CALLER.  Only with MAY_LOAD (under the report lock, not in a signal
 * handler) is libunwind used at all; otherwise the result is CALLER alone.
 * Returns the count. */
int rwc_backtrace(uintptr_t *pcs, int max, uintptr_t caller, int may_load);

#endif
