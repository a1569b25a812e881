/* knobs.c: parsing the RWCHECK_* knobs (see knobs.h).  Runs once, outside
 * the fast path; no allocation. */
#include "config.h"

#include "base/knobs.h"

#include <stddef.h>
#include <string.h>

/* All zero until rwc_knobs_load (before any check): no .data page to
 * fault in at every process start. */
struct rwc_knobs rwc_knobs;
unsigned rwc_checks = RWC_CHECK_MAPS | RWC_CHECK_OFFSET | RWC_CHECK_COUNT;

static const char *const format_names[] = {"text", "json", NULL};
static const char *const action_names[] = {"report", "efault", "abort", NULL};
static const char *const query_names[] = {"parse", "auto", NULL};
static const char *const trace_names[] = {"no", "yes", NULL};
/* valgrind's words too (--gen-suppressions=no|yes|all), and their values. */
static const char *const gen_names[] = {"0", "no", "1", "yes", "all", NULL};
static const unsigned char gen_values[] = {0, 0, 1, 1, 1};

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

/* Does S start with NAME followed by END ('\0': any)?  (No call into libc:
 * this runs in every process's constructor, where each first call of a
 * libc function costs a symbol lookup.) */
static const char *after(const char *s, const char *name, char end)
{
	while (*name && *s == *name)
		s++, name++;
	return *name || (end && *s != end) ? NULL : s + (end != 0);
}

void rwc_knobs_environ(char **envp, int secure, const char **out, unsigned cap)
{
	unsigned n = 0;

	for (unsigned i = 0; i < cap; i++)
		out[i] = NULL;
	if (secure)
		return;
	for (char **e = envp; e && *e && n < cap; e++)
		if (**e == 'R' && after(*e, "RWCHECK_", 0)) /* (every process start) */
			out[n++] = *e;
}

const char *rwc_knobs_lookup(const char *const *entries, unsigned cap, const char *name)
{
	const char *v;

	for (unsigned i = 0; i < cap && entries[i]; i++)
		if ((v = after(entries[i], name, '=')) != NULL)
			return v;
	return NULL;
}

/* The knobs that hold a number: a name from a list (its index, or its
 * entry in values), or a whole number from 0 to max; each with its
 * default and what a warning says. */
static const struct {
	const char *name;
	const char *const *names; /* NULL: a whole number from 0 to max */
	unsigned long max;
	int dflt;
	size_t field;             /* offsetof(struct rwc_knobs, ...), an int */
	const char *expected;
	const unsigned char *values; /* NULL: a name's index */
} scalars[] = {
	{"RWCHECK_FORMAT", format_names, 0, RWC_FORMAT_TEXT, offsetof(struct rwc_knobs, format),
	 "text or json", NULL},
	{"RWCHECK_ACTION", action_names, 0, RWC_ACTION_REPORT, offsetof(struct rwc_knobs, action),
	 "report, efault or abort", NULL},
	{"RWCHECK_BACKTRACE", NULL, RWC_BACKTRACE_MAX, RWC_BACKTRACE_DEFAULT,
	 offsetof(struct rwc_knobs, backtrace), "a whole number of frames from 0 to 64", NULL},
	{"RWCHECK_MAPS_QUERY", query_names, 0, 1, offsetof(struct rwc_knobs, maps_query),
	 "auto or parse", NULL},
	{"RWCHECK_DEDUP", NULL, 1, 1, offsetof(struct rwc_knobs, dedup),
	 "1 (report each call site once per process) or 0 (every call)", NULL},
	{"RWCHECK_GEN_SUPPRESSIONS", gen_names, 0, 0, offsetof(struct rwc_knobs, gen_suppressions),
	 "0 or no, 1, yes or all", gen_values},
	{"RWCHECK_HEAP_ORIGINS", NULL, 16, 1, offsetof(struct rwc_knobs, heap_origins),
	 "0 (off), 1 (the call sites that allocated and freed each heap block) or up to 16 frames of "
	 "their backtraces", NULL},
	{"RWCHECK_TRACE_CHILDREN", trace_names, 0, 1, offsetof(struct rwc_knobs, trace_children),
	 "yes (the processes this one starts are checked too) or no (they run without the library)", NULL},
	{"RWCHECK_QUARANTINE", NULL, RWC_QUARANTINE_MAX, RWC_QUARANTINE_DEFAULT, offsetof(struct rwc_knobs, quarantine),
	 "a number of bytes from 0 (off) to 1073741824", NULL},
};

static const struct {
	const char *name;
	unsigned bit;
} check_names[] = {{"maps", RWC_CHECK_MAPS},   {"offset", RWC_CHECK_OFFSET}, {"count", RWC_CHECK_COUNT},
		   {"heap", RWC_CHECK_HEAP},   {"stack", RWC_CHECK_STACK},   {"global", RWC_CHECK_GLOBAL},
		   {NULL, 0}};

int rwc_parse_checks(const char *s, unsigned dflt, unsigned *out)
{
	unsigned v;

	if (!s || !*s)
		return -1;
	v = (*s == '+' || *s == '-') ? dflt : 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int sign = (*s == '-') ? -1 : 1;
		unsigned bits = 0;
		const char *w = s + ((*s == '-' || *s == '+') ? 1 : 0);
		size_t wn = n - (size_t)(w - s);

		if (wn == 3 && strncmp(w, "all", 3) == 0) {
			bits = RWC_CHECKS_ALL;
		} else if (wn == 4 && strncmp(w, "none", 4) == 0 && sign > 0) {
			v = 0;
		} else {
			for (int i = 0; check_names[i].name; i++)
				if (strlen(check_names[i].name) == wn && strncmp(w, check_names[i].name, wn) == 0)
					bits = check_names[i].bit;
			if (!bits)
				return -1;
		}
		v = sign > 0 ? (v | bits) : (v & ~bits);
		s += n;
		if (*s == ',' && *++s == '\0')
			return -1;
	}
	*out = v;
	return 0;
}

void rwc_knobs_load(struct rwc_knobs *k, rwc_getenv_fn get, rwc_warn_fn warn)
{
	const char *v;

	/* RWCHECK_LOG first: the warnings go where reports go. */
	k->log[0] = '\0';
	v = get("RWCHECK_LOG");
	if (v && strcmp(v, "stderr") != 0) {
		if (rwc_parse_log(v) == 0)
			strcpy(k->log, v);
		else
			warn("RWCHECK_LOG", v,
			     "'stderr' or a file path (shorter than 4096 bytes) where %p is the pid and %% a '%'");
	}
	for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
		int *field = (int *)(void *)((char *)k + scalars[i].field), e = 0;
		unsigned long n = 0;

		*field = scalars[i].dflt;
		v = get(scalars[i].name);
		if (!v)
			continue;
		if (scalars[i].names ? rwc_parse_enum(v, scalars[i].names, &e) == 0
				     : rwc_parse_uint(v, scalars[i].max, &n) == 0)
			*field = !scalars[i].names ? (int)n : scalars[i].values ? scalars[i].values[e] : e;
		else
			warn(scalars[i].name, v, scalars[i].expected);
	}
	k->checks = RWC_CHECKS_DEFAULT;
	v = get("RWCHECK_CHECKS");
	if (v && rwc_parse_checks(v, RWC_CHECKS_DEFAULT, &k->checks) != 0)
		warn("RWCHECK_CHECKS", v,
		     "a comma-separated list of maps, offset, count, heap, stack, global, all, none; "
		     "or changes to the default such as -stack,+heap");
	if (k->suppress_set) /* (untouched when never set) */
		k->suppress[0] = '\0';
	k->suppress_set = 0;
	v = get("RWCHECK_SUPPRESS");
	if (v) {
		if (*v && strlen(v) < sizeof k->suppress)
			strcpy(k->suppress, v), k->suppress_set = 1;
		else
			warn("RWCHECK_SUPPRESS", v, "the path of a suppressions file");
	}
	k->cache[0] = '\0';
	v = get("RWCHECK_CACHE");
	if (v && strcmp(v, "off") != 0) { /* (off: none, and the wrapper makes none) */
		if (*v == '/' && strlen(v) < sizeof k->cache)
			strcpy(k->cache, v);
		else
			warn("RWCHECK_CACHE", v, "off, or the absolute path of a directory (shorter than 512 bytes)");
	}
}
