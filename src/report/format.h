/* format.h: what the text and JSON forms of a report share (format.c). */
#ifndef RWC_FORMAT_H
#define RWC_FORMAT_H

#include "report/report.h"

/* The one-line description of the problem ("bytes 100..4095 of buf are
 * not mapped", "*off_in = -5 is negative", ...). */
void rwc_format_message(struct rwc_fmt *o, const struct rwc_call *c, const struct rwc_finding *f);
/* "rw-p" and the like. */
void rwc_format_perms(struct rwc_fmt *o, unsigned p);

#endif
