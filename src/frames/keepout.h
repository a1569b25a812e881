/* keepout.h: keeping the libraries a report loads (libunwind, libdw and
 * theirs) out of the holes the program unmapped.  The loader maps a
 * library into the highest free gap that fits; if that is a hole the
 * program made, a later bad call into the hole reads as good and writes
 * into the library.  Around the dlopen, every gap between two mappings
 * (up to 1 GiB; not the stack's or the heap's room to grow) is held with
 * a PROT_NONE placeholder.  Report path only, one load at a time (the
 * loaders' once, under the report lock); allocates nothing. */
#ifndef RWC_KEEPOUT_H
#define RWC_KEEPOUT_H

/* Holds the gaps; returns how many (rwc_keepout_end lets them go).  Calls
 * nest: only the outermost pair holds and lets go. */
int rwc_keepout_begin(void);
void rwc_keepout_end(void);

#endif
