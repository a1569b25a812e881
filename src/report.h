/* report.h: one report per bad call, in text or JSON, written with one
 * write() (log.h).  The formatters are pure (unit tests call them); the
 * report path unwinds and symbolizes, which allocates (see unwind.h,
 * symbolize.h). */
#ifndef RWC_REPORT_H
#define RWC_REPORT_H

#include "checks.h"
#include "fmt.h"
#include "symbolize.h"

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
};

/* Is the finding about memory (the bytes and region fields apply)? */
int rwc_is_memory_problem(const struct rwc_finding *f);
/* Is it a heap-/stack-overflow with its block or frame known? */
int rwc_is_bounds_problem(const struct rwc_finding *f);

void rwc_format_text(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr);
/* TEXT (the text report, or NULL) and SUPP (a generated suppression, or
 * NULL) are carried as the fields "text" and "suppression". */
void rwc_format_json(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr,
		     const char *text, const char *supp);

/* The report lock for the other user of libunwind (the stack check):
 * 1 when taken by a thread that may load libraries (not in a signal
 * handler, a vfork child, a nested report or a child forked mid-report);
 * then rwc_unwind_unlock. */
int rwc_unwind_lock(void);
void rwc_unwind_unlock(void);

/* The report's scratch memory, mapped at start by init.c. */
size_t rwc_report_mem_size(void);
void rwc_report_init(void *mem);

/* Reports a bad call once per call site (dedup.h): unwinds, symbolizes,
 * applies the suppressions, formats and logs.  Returns 0 when a
 * suppression matched (the call then counts as good), else 1. */
int rwc_report(const struct rwc_call *c, const struct rwc_finding *f);

#endif
