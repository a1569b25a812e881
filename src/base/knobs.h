/* knobs.h: the RWCHECK_* environment knobs.  The parsers are pure (unit
 * tests call them); rwc_knobs_load reads the environment once, from the
 * constructor or the first checked call, never on the fast path. */
#ifndef RWC_KNOBS_H
#define RWC_KNOBS_H

enum rwc_format { RWC_FORMAT_TEXT, RWC_FORMAT_JSON };
enum rwc_action { RWC_ACTION_REPORT, RWC_ACTION_EFAULT, RWC_ACTION_ABORT };

#define RWC_BACKTRACE_DEFAULT 16
#define RWC_BACKTRACE_MAX 64
#define RWC_QUARANTINE_MAX (1ul << 30)
#define RWC_QUARANTINE_DEFAULT (512 << 10) /* bytes; measured: see the README's knob table */

struct rwc_knobs {
	int format;          /* enum rwc_format */
	int action;          /* enum rwc_action */
	int backtrace;       /* frames, 0..RWC_BACKTRACE_MAX */
	int maps_query;      /* 1: may use ioctl(PROCMAP_QUERY); 0: always parse */
	int dedup;           /* 1: each call site once per process, counts at exit */
	int gen_suppressions; /* 1: each report carries a suppression for it */
	int heap_origins;    /* frames of each heap block's allocation and free to keep: 0..16 */
	int quarantine;      /* bytes of freed heap blocks held back from reuse */
	int trace_children;  /* RWCHECK_TRACE_CHILDREN: 0 no, 1 yes; only validated here:
			      * the constructor acts on "no" and takes the knob away
			      * (entry/exec.c) */
	unsigned checks;     /* RWC_CHECK_* bits */
	int suppress_set;    /* suppress holds a path */
	/* (The paths last: a process start that sets neither touches no
	 * page of them but the first, which the short cache path shares
	 * with the numbers above and the log path's start.) */
	char cache[512];     /* RWCHECK_CACHE: the call-site cache's directory, "" for none */
	char log[4096];      /* "" means stderr; else a template with %p, %% */
	char suppress[4096]; /* suppressions file, "" for none */
};

/* RWCHECK_CHECKS: the check families (named by check_names in knobs.c:
 * maps, offset, count, heap, stack, global). */
#define RWC_CHECK_MAPS 1u
#define RWC_CHECK_OFFSET 2u
#define RWC_CHECK_COUNT 4u
#define RWC_CHECK_HEAP 8u
#define RWC_CHECK_STACK 16u
#define RWC_CHECK_GLOBAL 32u
#define RWC_CHECKS_ALL \
	(RWC_CHECK_MAPS | RWC_CHECK_OFFSET | RWC_CHECK_COUNT | RWC_CHECK_HEAP | RWC_CHECK_STACK | RWC_CHECK_GLOBAL)
#define RWC_CHECKS_DEFAULT RWC_CHECKS_ALL /* see librwcheck.7, "Cost" */

/* The RWC_CHECK_* families in force, set from the knobs by the first
 * checked call (call.c); before that, those that need no knob. */
extern unsigned rwc_checks;

extern struct rwc_knobs rwc_knobs;

/* Decimal integer in [0, max], nothing else around it: 0 on success. */
int rwc_parse_uint(const char *s, unsigned long max, unsigned long *out);
/* Index of S in the NULL-terminated NAMES: 0 on success. */
int rwc_parse_enum(const char *s, const char *const *names, int *out);
/* RWCHECK_CHECKS: "maps,heap", "all", "none", or changes to DFLT when the
 * list starts with + or - ("-stack,+heap"): 0 on success. */
int rwc_parse_checks(const char *s, unsigned dflt, unsigned *out);
/* A log template: "stderr", or a non-empty path whose '%' are only %p, %%. */
int rwc_parse_log(const char *s);

/* Collects into OUT (at most CAP) the RWCHECK_* entries of ENVP, in one
 * pass; none at all when SECURE (a secure-execution process: an
 * unprivileged user must not steer a privileged program's log or make it
 * read files). */
void rwc_knobs_environ(char **envp, int secure, const char **out, unsigned cap);
/* The value of NAME among the collected entries, or NULL. */
const char *rwc_knobs_lookup(const char *const *entries, unsigned cap, const char *name);

typedef const char *(*rwc_getenv_fn)(const char *name);
typedef void (*rwc_warn_fn)(const char *knob, const char *value, const char *expected);

/* Sets K to the defaults, then to the environment's values through GET;
 * each bad value gives one WARN call and leaves the default.  RWCHECK_LOG is settled first, so that the
 * warnings go where reports go. */
void rwc_knobs_load(struct rwc_knobs *k, rwc_getenv_fn get, rwc_warn_fn warn);

#endif
