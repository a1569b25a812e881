/* finding.h: what the checks of one call found wrong with it: the
 * problem, the buffer, segment or array, and what lies at the bad bytes.
 * The checks fill it (check.h); the reports say it (report.h). */
#ifndef RWC_FINDING_H
#define RWC_FINDING_H

#include "base/checks.h"

struct rwc_frame; /* frames/symbolize.h */

/* What was found wrong with a call. */
struct rwc_finding {
	enum rwc_problem problem;
	const char *what;     /* "buf", "iov", "the iovec array", "the msghdr", "msg_name", "msg_control" */
	long iov_index;       /* segment index, or -1 */
	long msg_index;       /* recvmmsg/sendmmsg: the message, or -1 */
	const char *offset_what; /* offset problems of an offset pointer: its name */
	int64_t offset;       /* ... and the offset it holds */
	const void *buf;      /* the offending buffer, segment or array */
	size_t count;         /* its length; iovcnt for iovcnt-invalid and iov-array-bad */
	size_t total;         /* vector calls: the sum of the segment lengths */
	struct rwc_verdict v; /* memory problems: the bad bytes and what lies there */
	struct rwc_bounds bounds; /* heap-/stack-overflow: the block or frame */
	const struct rwc_frame *origin; /* where the block was allocated, symbolized (report.c) */
	int norigin;          /* ... and how many frames */
	const struct rwc_frame *freed_at; /* a freed block: where it was freed (report.c) */
	int nfreed_at;        /* ... and how many frames */
};

/* Empties F before the checks of a call whose buffer is BUF, COUNT bytes:
 * no problem, "buf", no index, no holder. */
void rwc_finding_init(struct rwc_finding *f, const void *buf, size_t count);

/* Is the finding about memory (the bytes and region fields apply)? */
int rwc_is_memory_problem(const struct rwc_finding *f);
/* Is it a heap-/stack-overflow with its block or frame known? */
int rwc_is_bounds_problem(const struct rwc_finding *f);

#endif
