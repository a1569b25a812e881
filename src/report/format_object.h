/* format_object.h: the lines of a text report that describe the object
 * a buffer lies in (heap block, stack variable or frame, global, the
 * compiler's size), and the words the message shares with them.  Pure:
 * builds into a caller's buffer with fmt.h; no allocation, signal-safe. */
#ifndef RWC_FORMAT_OBJECT_H
#define RWC_FORMAT_OBJECT_H

#include "base/fmt.h"
#include "check/finding.h"
#include "frames/symbolize.h"

/* "rwcheck[PID]: " */
void rwc_fmt_prefix(struct rwc_fmt *o, long pid);
/* "buf", "iov[2]", "the iovec array", ... */
void rwc_fmt_what(struct rwc_fmt *o, const struct rwc_finding *f);
/* "`char name[16]` (x.c:12) in frame #0 read_name, into `char rest[240]`" */
void rwc_fmt_variable(struct rwc_fmt *o, const struct rwc_bounds *b);
/* The line that says what holds the buffer (F's bounds; FR: the call's
 * frames, to name a frame by its index). */
void rwc_format_object(struct rwc_fmt *o, long pid, const struct rwc_finding *f, const struct rwc_frame *fr,
		       int nfr);
/* A fortified call: the size the compiler saw, which glibc enforces. */
void rwc_format_compiler(struct rwc_fmt *o, long pid, const struct rwc_call *c, const struct rwc_finding *f);

#endif
