/* report.h: one report per bad call, in text or JSON (format.h), written
 * with one write() (log.h).  The report path unwinds and symbolizes, which
 * allocates (see unwind.h, symbolize.h), except in safe mode. */
#ifndef RWC_REPORT_H
#define RWC_REPORT_H

#include "base/checks.h"
#include "check/finding.h"
#include "base/fmt.h"
#include "frames/symbolize.h"

/* Reports a bad call once per call site (dedup.h): unwinds, symbolizes,
 * applies the suppressions, formats and logs.  Returns 0 when a
 * suppression matched (the call then counts as good), else 1. */
int rwc_report(const struct rwc_call *c, const struct rwc_finding *f);

#endif
