/* format.h: the text and the JSON form of a report (format.c,
 * format_json.c), and what they share.  Pure: no allocation, signal-safe. */
#ifndef RWC_FORMAT_H
#define RWC_FORMAT_H

#include "base/common.h"
#include "base/fmt.h"
#include "check/finding.h"
#include "frames/symbolize.h"

/* The report of C with finding F and frames FR[0..nfr), as text. */
void rwc_format_text(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr);
/* TEXT (the text report, or NULL) and SUPP (a generated suppression, or
 * NULL) are carried as the fields "text" and "suppression"; SITE (dedup.h:
 * the call site's id, 0 none) as "site", which the site's count at exit
 * names too. */
void rwc_format_json(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr,
		     const char *text, const char *supp, uint64_t site);

/* The one-line description of the problem ("bytes 100..4095 of buf are
 * not mapped", "*off_in = -5 is negative", ...). */
void rwc_format_message(struct rwc_fmt *o, const struct rwc_call *c, const struct rwc_finding *f);
/* "rw-p" and the like. */
void rwc_format_perms(struct rwc_fmt *o, unsigned p);

#endif
