/* suppfile.h: the suppressions file of RWCHECK_SUPPRESS, loaded once (by
 * the first checked call) into memory of its own (mmap), and matched on
 * the report path.  A file that cannot be read, or a malformed entry, gives
 * one warning each with file:line; the program is never stopped. */
#ifndef RWC_SUPPFILE_H
#define RWC_SUPPFILE_H

#include "frames/symbolize.h"

void rwc_suppfile_load(const char *path);

/* The name of the first suppression that matches, or NULL. */
const char *rwc_suppfile_match(const char *problem, const struct rwc_frame *fr, int n);

#endif
