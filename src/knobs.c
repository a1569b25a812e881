/* knobs.c: parsing the RWCHECK_* knobs (see knobs.h).  Runs once, outside
 * the fast path; no allocation. */
#include "config.h"

#include "knobs.h"

#include <string.h>

/* All zero until rwc_knobs_load (before any check): no .data page to
 * fault in at every process start. */
struct rwc_knobs rwc_knobs;

static const char *const format_names[] = {"text", "json", NULL};
static const char *const action_names[] = {"report", "efault", "abort", NULL};
static const char *const query_names[] = {"parse", "auto", NULL};

int rwc_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		unsigned d;
		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int rwc_parse_enum(const char *s, const char *const *names, int *out)
{
	if (!s)
		return -1;
	for (int i = 0; names[i]; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

int rwc_parse_log(const char *s)
{
	if (!s || !*s)
		return -1;
	if (strlen(s) >= sizeof rwc_knobs.log)
		return -1;
	for (; *s; s++) {
		if (*s != '%')
			continue;
		s++;
		if (*s != 'p' && *s != '%')
			return -1;
	}
	return 0;
}

void rwc_knobs_load(struct rwc_knobs *k, rwc_getenv_fn get, rwc_warn_fn warn)
{
	const char *v;
	unsigned long n;
	int e;

	k->format = RWC_FORMAT_TEXT;
	k->action = RWC_ACTION_REPORT;
	k->backtrace = RWC_BACKTRACE_DEFAULT;
	k->maps_query = 1;
	k->dedup = 1;
	k->gen_suppressions = 0;
	k->log[0] = '\0';
	v = get("RWCHECK_LOG");
	if (v && strcmp(v, "stderr") != 0) {
		if (rwc_parse_log(v) == 0)
			strcpy(k->log, v);
		else
			warn("RWCHECK_LOG", v,
			     "'stderr' or a file path (shorter than 4096 bytes) where %p is the pid and %% a '%'");
	}

	v = get("RWCHECK_FORMAT");
	if (v) {
		if (rwc_parse_enum(v, format_names, &e) == 0)
			k->format = e;
		else
			warn("RWCHECK_FORMAT", v, "text or json");
	}

	v = get("RWCHECK_ACTION");
	if (v) {
		if (rwc_parse_enum(v, action_names, &e) == 0)
			k->action = e;
		else
			warn("RWCHECK_ACTION", v, "report, efault or abort");
	}

	v = get("RWCHECK_BACKTRACE");
	if (v) {
		if (rwc_parse_uint(v, RWC_BACKTRACE_MAX, &n) == 0)
			k->backtrace = (unsigned)n;
		else
			warn("RWCHECK_BACKTRACE", v, "a whole number of frames from 0 to 64");
	}

	v = get("RWCHECK_MAPS_QUERY");
	if (v) {
		if (rwc_parse_enum(v, query_names, &e) == 0)
			k->maps_query = e;
		else
			warn("RWCHECK_MAPS_QUERY", v, "auto or parse");
	}

	v = get("RWCHECK_DEDUP");
	if (v) {
		if (rwc_parse_uint(v, 1, &n) == 0)
			k->dedup = (int)n;
		else
			warn("RWCHECK_DEDUP", v, "1 (report each call site once per process) or 0 (every call)");
	}

	v = get("RWCHECK_GEN_SUPPRESSIONS");
	if (v) {
		if (rwc_parse_uint(v, 1, &n) == 0)
			k->gen_suppressions = (int)n;
		else
			warn("RWCHECK_GEN_SUPPRESSIONS", v, "0 or 1");
	}

	k->suppress[0] = '\0';
	v = get("RWCHECK_SUPPRESS");
	if (v) {
		if (*v && strlen(v) < sizeof k->suppress)
			strcpy(k->suppress, v);
		else
			warn("RWCHECK_SUPPRESS", v, "the path of a suppressions file");
	}
}
