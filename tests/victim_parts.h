/* victim_parts.h: what the files of the victim program share: victim.c
 * (the harness's state and helpers, one case per entry point, the call
 * sites' identity, main) and the cases of victim_problems.c, victim_maps.c
 * and victim_process.c, each file's in a table of its own. */
#ifndef RWC_TESTS_VICTIM_PARTS_H
#define RWC_TESTS_VICTIM_PARTS_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "victim.h"

#define N 4096 /* the bad mode's count: bytes 100..N-1 lie past the buffer */

extern char **environ;

extern int bad;          /* MODE is "bad" */
extern int file_fd;      /* a 10-byte file */
extern int null_fd;      /* /dev/null */
extern int sock[2];      /* stream socketpair, 10 bytes waiting on sock[0] */
extern char small[16];   /* segment 0 of vector calls */
extern ssize_t ret;      /* what the case's call returned */

/* perror(WHAT), exit 99. */
void die(const char *what);
/* A region of 2 pages; with TAIL_PROT != PROT_READ|PROT_WRITE the second
 * page gets that protection, with -1 it is unmapped.  Returns the address
 * 100 bytes before the second page. */
char *edge(int tail_prot);
/* edge()'s buffer: its tail unmapped in the bad mode. */
char *buffer(void);
/* A two-segment vector: small (10 bytes), then N bytes at B. */
void vec(struct iovec *iov, char *b);
/* VICTIM_FDS=ebadf|eagain|epipe|eintr: the descriptors replaced by ones
 * the kernel fails the calls on (victim_problems.c). */
void kernel_failures(void);

extern const struct victim_case victim_problem_cases[], victim_map_cases[], victim_process_cases[];
extern const size_t victim_problem_ncases, victim_map_ncases, victim_process_ncases;

#endif
