/* collect.h: the wrapper's collector: the reports of every process of a
 * run, grouped by call site (same problem, same entry point, same caller
 * frames). */
#ifndef RWC_COLLECT_H
#define RWC_COLLECT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct group {
	char *key;       /* problem + call (+ syscall) + frame identities */
	json_t *first;   /* the first report of the group */
	unsigned long count;
	long pids[16];   /* the first processes it came from */
	unsigned npids;  /* how many distinct processes, all counted */
};

struct supps;

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
	struct supps *supps;      /* applied here (NULL: none, or the library's) */
	json_t *suppressed;       /* object: a suppressed report's process +
	                           * caller + entry point + problem -> its
	                           * suppression's index */
};

/* Adds one JSON record (returns 1 when it starts a new call site, 0 when
 * it adds to one, -1 when it is no bad call: suppressed, or a repeat) (a report or a repeat count) to R.  A repeat count
 * is added to the group of the report its process made from the same
 * caller, entry point and problem; it follows that report in the log. */
int collect_record(struct run *r, json_t *rec);

/* Groups, most frequent first. */
void collect_sort(struct run *r);

/* One summary line of the call site R->g[I]: count, problem, call, caller
 * (and its callers where another site of the same problem and call shares
 * the caller), pids. */
void collect_print_site(FILE *out, const struct run *r, size_t i);

/* The command's processes, sampled from /proc while it runs (ptree.c). */
struct ptree {
	long root;               /* the command's pid; 0 before it starts */
	const char *lib;         /* the library's real path, as in maps */
	char self[256];          /* this program's path */
	struct proc {
		long pid;
		int with;        /* the library is in its address space: 1,
		                  * 0, -1 not yet known (seen once without) */
		int from_exec;   /* told by the library's unchecked_exec record */
		char exe[256];
	} *v;                    /* each (pid, executable) once */
	size_t n, cap;
};
void ptree_scan(struct ptree *pt);
/* PID exec'd or spawned EXE without the library (the library's
 * {"unchecked_exec": EXE, "pid": PID} record): counted without, however
 * short it lived; the samples add no second entry for PID. */
void ptree_note_exec(struct ptree *pt, long pid, const char *exe);
/* Distinct processes seen with (WITH=1) or without the library. */
size_t ptree_count(struct ptree *pt, int with);
/* A warning on stderr when CMD (found in PATH) is static or setuid. */
void ptree_check_exe(const char *cmd);

/* Following a log directory while its processes write to it. */
struct follow {
	struct run *r;
	const char *dir;
	FILE *out;
	int json;        /* print JSON lines only */
	int quiet;       /* print no report (warnings still) */
	int every;       /* print every report, not only each site's first */
	struct ptree *pt;    /* NULL: no sampling */
	struct seen {
		char *name;
		long long off; /* complete lines read so far */
	} *files;
	size_t nfiles, cap;
};

/* Reads what was appended to DIR/rwcheck.* since the last scan (complete
 * lines only), adds it to the run and prints each new report. */
void follow_scan(struct follow *fl);
void follow_free(struct follow *fl);

/* Runs ARGV (run.c) with LIB preloaded, following FL meanwhile; returns
 * its status as a shell gives it; run_signal(): the last signal forwarded. */
int run_command(char **argv, const char *lib, struct follow *fl);
int run_signal(void);

/* Writes the SARIF 2.1.0 log of R to PATH, merged with the results
 * already there (under a lock: parallel wrappers of one run), with URIs
 * relative to SRCROOT (NULL: the current directory): 0, or -1 with errno. */
int sarif_write(const struct run *r, const char *path, const char *version, const char *srcroot);

/* The I-th problem name (NULL past the last). */
const char *sarif_rule_name(int i);

/* The suppressions file applied by the collector (suppmatch.c).
 * COUNTING 0: parse only, its errors printed as warnings. */
struct supps *supps_load(const char *path, int counting);
void supps_free(struct supps *s);
/* The index of the first suppression matching the report REC, or -1. */
int supps_match(struct supps *s, json_t *rec);
void supps_add(struct supps *s, int k, unsigned long n);
unsigned long supps_total(const struct supps *s, unsigned *entries);
/* "N bad calls suppressed by M suppressions", EACH: and one line each. */
void supps_print(const struct supps *s, FILE *out, int each);
json_t *supps_json(const struct supps *s);

/* rwcheck-collect --check-supp=FILE (suppcheck.c). */
int supp_check(const char *path);

/* The wrapper's own line: "rwcheck: [warning: ]TEXT", or {"KEY": "TEXT"}
 * when SAY_JSON (--format=json); on stderr (say.c). */
extern int say_json;
void say(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rwcheck-collect [--format=F] --check-supp=FILE, [--format=F] --say=KEY
 * TEXT... (a line each): their status; -1: not one of these modes. */
int say_main(int argc, char **argv);

#endif
