/* main.c: rwcheck-collect, the wrapper's C half.
 *
 *   rwcheck-collect [OPTIONS] DIR                  collect DIR's logs
 *   rwcheck-collect [OPTIONS] --run=LIB DIR -- COMMAND [ARGS...]
 *       run COMMAND with LIB preloaded (run.c), printing reports as they
 *       come; exit with its status, else --error-exitcode when bad calls
 *       were found, else 0
 *   rwcheck-collect --probe        (with the library preloaded: is it?)
 *   rwcheck-collect [--format=F] --check-supp=FILE   warnings about a
 *       suppressions file
 *   rwcheck-collect [--format=F] --say=KEY TEXT...   the wrapper's own lines
 *       (say.c: JSON objects with --format=json)
 *
 * OPTIONS: --format=text|json --quiet --every --sarif=FILE --srcroot=DIR
 * --out=FILE --error-exitcode=N --rmdir (remove DIR at the end)
 * --outer=DIR (a nested wrapper: append DIR's logs to the outer one's)
 * --no-trace-children (the processes without the library were meant so).
 * Without --run: exit 1 when there was any bad call, 0 when none, 2 on
 * error. */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"

struct opts {
	const char *format, *sarif, *srcroot, *outpath, *dir, *lib, *outer, *supp;
	int quiet, every, rmdir, error_exitcode, show_suppressed, notrace;
	char **cmd;
};

static void usage(void)
{
	fprintf(stderr, "usage: rwcheck-collect [--format=text|json] [--quiet] [--every] [--sarif=FILE]"
			" [--srcroot=DIR] [--out=FILE] [--error-exitcode=N] [--rmdir] [--outer=DIR]"
			" [--no-trace-children] [--run=LIB] DIR [-- COMMAND...]\n");
}

/* --probe, run with the library preloaded: is it really in? */
static int probe(void)
{
	Dl_info info;
	void *f = dlsym(RTLD_DEFAULT, "read");
	char b[1];
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* One checked call: the library starts (reads its knobs, warns about
	 * bad values) and runs its code (a damaged file fails here). */
	if (fd >= 0) {
		if (read(fd, b, sizeof b) < 0)
			fprintf(stderr, "rwcheck: probe: read /dev/null: %s\n", strerror(errno));
		close(fd);
	}
	if (f && dladdr(f, &info) && info.dli_fname && strstr(info.dli_fname, "librwcheck"))
		return 0;
	fprintf(stderr, "rwcheck: the library was not preloaded (read() is %s's)\n",
		f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : "unknown");
	return 3;
}

static int parse(int argc, char **argv, struct opts *o)
{
	for (int a = 1; a < argc; a++) {
		char *eq = strchr(argv[a], '='), *v = eq ? eq + 1 : argv[a] + strlen(argv[a]);
		if (strncmp(argv[a], "--format=", 9) == 0)
			o->format = v;
		else if (strcmp(argv[a], "--quiet") == 0)
			o->quiet = 1;
		else if (strcmp(argv[a], "--every") == 0)
			o->every = 1;
		else if (strcmp(argv[a], "--rmdir") == 0)
			o->rmdir = 1;
		else if (strncmp(argv[a], "--sarif=", 8) == 0)
			o->sarif = v;
		else if (strncmp(argv[a], "--srcroot=", 10) == 0)
			o->srcroot = v;
		else if (strncmp(argv[a], "--out=", 6) == 0)
			o->outpath = v;
		else if (strncmp(argv[a], "--suppressions=", 15) == 0)
			o->supp = v;
		else if (strcmp(argv[a], "--show-suppressed") == 0)
			o->show_suppressed = 1;
		else if (strcmp(argv[a], "--no-trace-children") == 0)
			o->notrace = 1;
		else if (strncmp(argv[a], "--outer=", 8) == 0)
			o->outer = v;
		else if (strncmp(argv[a], "--run=", 6) == 0)
			o->lib = v;
		else if (strncmp(argv[a], "--error-exitcode=", 17) == 0)
			o->error_exitcode = atoi(v);
		else if (strcmp(argv[a], "--") == 0 && o->lib && a + 1 < argc) {
			o->cmd = argv + a + 1;
			break;
		} else if (argv[a][0] != '-' && !o->dir)
			o->dir = argv[a];
		else
			return -1;
	}
	if (!o->dir || (o->lib && !o->cmd) || (strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0))
		return -1;
	say_json = strcmp(o->format, "json") == 0;
	return 0;
}

/* A nested wrapper hands its logs to the outer one, which counts them
 * once: the inner processes logged only here. */
static void hand_over(struct follow *fl, const char *outer)
{
	char path[4096], buf[65536];
	size_t n;

	for (size_t i = 0; i < fl->nfiles; i++) {
		FILE *in, *out;
		snprintf(path, sizeof path, "%s/%s", fl->dir, fl->files[i].name);
		if (!(in = fopen(path, "re")))
			continue;
		snprintf(path, sizeof path, "%s/%s", outer, fl->files[i].name);
		if ((out = fopen(path, "ae"))) {
			while ((n = fread(buf, 1, sizeof buf, in)) > 0)
				fwrite(buf, 1, n, out);
			fclose(out);
		}
		fclose(in);
	}
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			if (unlink(path) != 0 && errno == EISDIR) /* (the call-site cache) */
				remove_dir(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Where reports and the summary go: stderr, or --out= (NULL: it cannot be
 * opened; the wrapper's temporary directory, empty yet, is removed). */
static FILE *open_out(const struct opts *o)
{
	FILE *f = o->outpath ? fopen(o->outpath, "ae") : stderr;

	if (!f) {
		say("error", "cannot write %s: %s", o->outpath, strerror(errno));
		if (o->rmdir)
			remove_dir(o->dir);
	}
	return f;
}

static void summary_json(FILE *out, const struct run *r, size_t with, size_t without)
{
	unsigned entries;
	unsigned long suppressed = supps_total(r->supps, &entries);
	json_t *sites = json_array(), *s;

	for (size_t i = 0; i < r->n; i++) {
		const struct group *g = &r->g[i];
		json_t *fr = json_array_get(json_object_get(g->first, "frames"), 0), *pids = json_array();
		for (unsigned k = 0; k < g->npids && k < 16; k++)
			json_array_append_new(pids, json_integer(g->pids[k]));
		s = json_pack("{s:I,s:O,s:O,s:I,s:o}", "count", (json_int_t)g->count, "problem",
			      json_object_get(g->first, "problem"), "call", json_object_get(g->first, "call"),
			      "processes", (json_int_t)g->npids, "pids", pids);
		if (s && fr)
			json_object_set(s, "frame", fr);
		if (s)
			json_array_append_new(sites, s);
	}
	s = json_pack("{s:{s:I,s:I,s:I,s:I,s:I,s:o,s:I,s:o}}", "summary", "bad_calls", (json_int_t)r->bad,
		      "call_sites", (json_int_t)r->n, "processes", (json_int_t)r->npids, "processes_with_library",
		      (json_int_t)with, "processes_without_library", (json_int_t)without, "sites", sites,
		      "suppressed_calls", (json_int_t)suppressed, "suppressed", supps_json(r->supps));
	if (s) {
		char *t = json_dumps(s, JSON_COMPACT);
		if (t)
			fprintf(out, "%s\n", t);
		free(t);
	}
	json_decref(s);
}

/* Processes that ran with the library: sampled, or seen in the logs. */
static size_t checked(struct ptree *pt, const struct run *r)
{
	size_t c = ptree_count(pt, 1);

	for (size_t i = 0; i < r->npids; i++) {
		int seen = 0;
		for (size_t j = 0; j < pt->n && !seen; j++)
			seen = pt->v[j].with == 1 && pt->v[j].pid == r->pids[i];
		c += (size_t)!seen;
	}
	return c;
}

/* NOTRACE (--trace-children=no): they were meant to, and the line is no
 * warning. */
static void unchecked_line(FILE *out, struct ptree *pt, size_t without, int notrace)
{
	int shown = 0;

	fprintf(out, "rwcheck: %s%zu process%s ran without the library, unchecked:", notrace ? "" : "warning: ",
		without, without == 1 ? "" : "es");
	for (size_t i = 0; i < pt->n && shown < 3; i++)
		if (pt->v[i].with == 0)
			fprintf(out, "%s %s (pid %ld)", shown++ ? "," : "", pt->v[i].exe, pt->v[i].pid);
	if (notrace)
		fprintf(out, "%s; as --trace-children=no asks\n", without > 3 ? ", ..." : "");
	else
		fprintf(out, "%s; LD_PRELOAD was taken from their environment (env -i, a test harness "
			     "that sets its own), or they are static or setuid\n", without > 3 ? ", ..." : "");
}

static void summary(FILE *out, const struct opts *o, const struct run *r, struct ptree *pt)
{
	size_t without = ptree_count(pt, 0), with = checked(pt, r);

	if (strcmp(o->format, "json") == 0) {
		summary_json(out, r, with, without);
		return;
	}
	if (without && !(o->notrace && o->quiet))
		unchecked_line(out, pt, without, o->notrace);
	if (!o->quiet)
		supps_print(r->supps, out, o->show_suppressed);
	if (!r->bad)
		return;
	if (!o->quiet)
		fprintf(out, "rwcheck: at least %zu process%s ran with the library\n", with, with == 1 ? "" : "es");
	if (!o->quiet && r->n)
		fprintf(out, "rwcheck: bad calls by call site, most frequent first:\n");
	for (size_t i = 0; !o->quiet && i < r->n; i++)
		collect_print_site(out, r, i);
	fprintf(out, "rwcheck: %lu bad call%s from %zu call site%s in %zu process%s\n", r->bad,
		r->bad == 1 ? "" : "s", r->n, r->n == 1 ? "" : "s", r->npids, r->npids == 1 ? "" : "es");
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->g[i].key);
		json_decref(r->g[i].first);
	}
	free(r->g);
	free(r->pids);
	json_decref(r->other);
	json_decref(r->reported);
	json_decref(r->suppressed);
	supps_free(r->supps);
}

int main(int argc, char **argv)
{
	struct opts o = {.format = "text", .error_exitcode = 1};
	struct run r = {0};
	struct follow fl = {0};
	struct ptree pt = {0};
	char *real = NULL;
	int rc = 0, status = 0;

	if (argc == 2 && strcmp(argv[1], "--probe") == 0)
		return probe();
	if ((rc = say_main(argc, argv)) >= 0)
		return rc;
	rc = 0;
	if (parse(argc, argv, &o) != 0)
		return usage(), 2;
	if (!(fl.out = open_out(&o)))
		return o.lib ? 125 : 2;
	r.other = json_array();
	r.reported = json_object();
	r.suppressed = json_object();
	if (o.supp && !(r.supps = supps_load(o.supp, 1)))
		say("warning", "cannot read the suppressions file %s", o.supp);
	fl.r = &r;
	fl.dir = o.dir;
	fl.json = say_json;
	fl.quiet = o.quiet;
	fl.every = o.every;
	if (o.lib) {
		pt.lib = (real = realpath(o.lib, NULL)) ? real : o.lib;
		fl.pt = &pt;
		status = run_command(o.cmd, o.lib, &fl);
	}
	else
		follow_scan(&fl);
	collect_sort(&r);
	summary(fl.out, &o, &r, &pt);
	fflush(fl.out);
	if (o.outer)
		hand_over(&fl, o.outer);
	if (o.sarif && sarif_write(&r, o.sarif, PACKAGE_VERSION, o.srcroot) != 0) {
		say("error", "cannot write the SARIF file %s: %s", o.sarif, strerror(errno));
		rc = 2;
	}
	if (fl.out != stderr)
		fclose(fl.out);
	if (o.rmdir)
		remove_dir(o.dir);
	run_free(&r);
	follow_free(&fl);
	free(pt.v);
	free(real);
	if (!o.lib)
		return rc ? rc : r.bad ? 1 : 0;
	if (status)
		return status;
	return rc ? 125 : r.bad ? o.error_exitcode : 0;
}
