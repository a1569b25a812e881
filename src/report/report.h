/* report.h: one report per bad call, in text or JSON, written with one
 * write() (log.h).  The formatters are pure (unit tests call them); the
 * report path unwinds and symbolizes, which allocates (see unwind.h,
 * symbolize.h). */
#ifndef RWC_REPORT_H
#define RWC_REPORT_H

#include "base/checks.h"
#include "check/finding.h"
#include "base/fmt.h"
#include "frames/symbolize.h"

void rwc_format_text(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr);
/* TEXT (the text report, or NULL) and SUPP (a generated suppression, or
 * NULL) are carried as the fields "text" and "suppression". */
void rwc_format_json(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr,
		     const char *text, const char *supp);

/* Reports a bad call once per call site (dedup.h): unwinds, symbolizes,
 * applies the suppressions, formats and logs.  Returns 0 when a
 * suppression matched (the call then counts as good), else 1. */
int rwc_report(const struct rwc_call *c, const struct rwc_finding *f);

#endif
