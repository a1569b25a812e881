/* collect.h: the wrapper's collector: the reports of every process of a
 * run, grouped by call site (same problem, same entry point, same caller
 * frames). */
#ifndef RWC_COLLECT_H
#define RWC_COLLECT_H

#include <jansson.h>
#include <stddef.h>

struct group {
	char *key;       /* problem + call (+ syscall) + frame identities */
	json_t *first;   /* the first report of the group */
	unsigned long count;
	long pids[16];   /* the first processes it came from */
	unsigned npids;  /* how many distinct processes, all counted */
};

struct run {
	struct group *g;
	size_t n, cap;
	unsigned long bad;        /* bad calls, repeats included */
	long *pids;               /* distinct processes with bad calls */
	size_t npids, pidcap;
	json_t *other;            /* lines that are not reports (warnings) */
	json_t *reported;         /* object: each report's process + caller +
	                           * entry point + problem -> its group's index
	                           * (valid until collect_sort) */
};

/* Adds one JSON record (a report or a repeat count) to R.  A repeat count
 * is added to the group of the report its process made from the same
 * caller, entry point and problem; it follows that report in the log. */
void collect_record(struct run *r, json_t *rec);

/* Groups, most frequent first. */
void collect_sort(struct run *r);

/* Writes the SARIF 2.1.0 log of R to PATH: 0, or -1 with errno. */
int sarif_write(const struct run *r, const char *path, const char *version);

#endif
