/* exec.h: RWCHECK_TRACE_CHILDREN=no, the library left out of what a
 * checked process starts (exec.c). */
#ifndef RWC_EXEC_H
#define RWC_EXEC_H

/* From the constructor, with RWCHECK_TRACE_CHILDREN's value: "no" takes
 * the library out of this process's environment (LD_PRELOAD's entry and
 * the knob itself) and out of every explicit environment it hands to an
 * exec or a spawn from now on.  Any other value: nothing (knobs.c warns
 * about a bad one). */
void rwc_exec_start(const char *value);

#endif
