/* victim_bounds.h: what the two files of the victim_bounds programs
 * share: victim_bounds.c (the heap cases and main) and
 * victim_bounds_stack.c (the stack cases). */
#ifndef RWC_TESTS_VICTIM_BOUNDS_H
#define RWC_TESTS_VICTIM_BOUNDS_H

#include <sys/types.h>

#include "victim.h"

extern int bad;     /* the mode is "bad" */
extern int file_fd; /* a 10-byte file */
extern int null_fd; /* /dev/null */
extern ssize_t ret; /* what the case's call returned */

/* The stack cases (victim_bounds_stack.c). */
extern const struct victim_case victim_stack_cases[];
extern const size_t victim_stack_ncases;

#endif
