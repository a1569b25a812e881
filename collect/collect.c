/* collect.c: rwcheck-collect DIR — reads the per-process JSON logs the
 * library wrote under the wrapper (DIR/rwcheck.PID.json), groups the bad
 * calls by call site, prints the reports once per site and a summary whose
 * last line a CI log reader can grep, writes SARIF on request, and exits
 * 1 when there was any (unsuppressed) bad call, 0 when none, 2 on error.
 *
 *   rwcheck-collect [--format=text|json] [--quiet] [--sarif=FILE]
 *                   [--out=FILE] DIR
 *   rwcheck-collect --probe     (with the library preloaded: exit 0 if it is) */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The entry point: the call, and for syscall() the system call. */
static int entry_str(char *k, size_t cap, json_t *rec)
{
	const char *sys = str(rec, "syscall");
	return snprintf(k, cap, "%s%s%s", str(rec, "call"), *sys ? ":" : "", sys);
}

/* The call site's identity: problem, entry point, and each frame's module,
 * function and file:line (addresses change from process to process). */
static char *site_key(json_t *rep)
{
	size_t cap = 4096, len = 0, i;
	char *k = malloc(cap);
	json_t *f;

	if (!k)
		return NULL;
	len = (size_t)snprintf(k, cap, "%s|", str(rep, "problem"));
	len += (size_t)entry_str(k + len, cap - len, rep);
	json_array_foreach(json_object_get(rep, "frames"), i, f) {
		int n = snprintf(k + len, cap - len, "|%s:%s:%s:%lld", base(str(f, "module")),
				 str(f, "function"), str(f, "file"),
				 (long long)json_integer_value(json_object_get(f, "line")));
		if (n < 0 || (size_t)n >= cap - len)
			break;
		len += (size_t)n;
	}
	return k;
}

/* What ties a repeat record to its report: process, caller address, entry
 * point and problem (the library's own site key). */
static void origin_key(char *k, size_t cap, json_t *rec)
{
	int n = snprintf(k, cap, "%lld|%s|%s|", (long long)json_integer_value(json_object_get(rec, "pid")),
			 str(rec, "caller"), str(rec, "problem"));

	if (n > 0 && (size_t)n < cap)
		entry_str(k + n, cap - (size_t)n, rec);
}

static void add_pid(long **v, size_t *n, size_t *cap, long pid)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == pid)
			return;
	if (*n == *cap) {
		long *nv = realloc(*v, (*cap ? *cap * 2 : 16) * sizeof **v);
		if (!nv)
			return;
		*v = nv;
		*cap = *cap ? *cap * 2 : 16;
	}
	(*v)[(*n)++] = pid;
}

static void group_pid(struct group *g, long pid)
{
	for (unsigned i = 0; i < g->npids && i < 16; i++)
		if (g->pids[i] == pid)
			return;
	if (g->npids < 16)
		g->pids[g->npids] = pid;
	g->npids++;
}

void collect_record(struct run *r, json_t *rec)
{
	long pid = (long)json_integer_value(json_object_get(rec, "pid"));
	struct group *g = NULL;
	char *key, origin[1024];
	json_t *gi;

	origin_key(origin, sizeof origin, rec);
	if (json_object_get(rec, "repeat")) {
		json_int_t n = json_integer_value(json_object_get(rec, "repeat"));
		if (json_is_true(json_object_get(rec, "suppressed")) || n <= 0)
			return;
		gi = json_object_get(r->reported, origin);
		if (gi && (size_t)json_integer_value(gi) < r->n) {
			r->g[json_integer_value(gi)].count += (unsigned long)n;
			r->bad += (unsigned long)n;
		}
		return;
	}
	key = site_key(rec);
	if (!key)
		return;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->g[i].key, key) == 0)
			g = &r->g[i];
	if (!g) {
		if (r->n == r->cap) {
			struct group *ng = realloc(r->g, (r->cap ? r->cap * 2 : 16) * sizeof *ng);
			if (!ng) {
				free(key);
				return;
			}
			r->g = ng;
			r->cap = r->cap ? r->cap * 2 : 16;
		}
		g = &r->g[r->n++];
		memset(g, 0, sizeof *g);
		g->key = key;
		g->first = json_incref(rec);
	} else {
		free(key);
	}
	json_object_set_new(r->reported, origin, json_integer((json_int_t)(g - r->g)));
	g->count++;
	group_pid(g, pid);
	r->bad++;
	add_pid(&r->pids, &r->npids, &r->pidcap, pid);
}

static int by_count(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

void collect_sort(struct run *r)
{
	if (r->n > 1)
		qsort(r->g, r->n, sizeof *r->g, by_count);
}

static void read_log(struct run *r, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		json_t *rec = line[0] == '{' ? json_loads(line, JSON_DECODE_ANY, NULL) : NULL;
		if (rec && json_is_object(rec))
			collect_record(r, rec);
		else if (n > 1)
			json_array_append_new(r->other, json_string(line));
		json_decref(rec);
	}
	free(line);
	fclose(f);
}

static void print_site(FILE *out, const struct group *g)
{
	json_t *fr = json_array_get(json_object_get(g->first, "frames"), 0);
	const char *sys = str(g->first, "syscall");

	fprintf(out, "rwcheck:   %lu x %s in %s(%s%s) at %s", g->count, str(g->first, "problem"),
		str(g->first, "call"), *sys ? "SYS_" : "", sys,
		fr && *str(fr, "function") ? str(fr, "function") : "??");
	if (fr && *str(fr, "file"))
		fprintf(out, " (%s:%lld)", str(fr, "file"), (long long)json_integer_value(json_object_get(fr, "line")));
	else if (fr)
		fprintf(out, " (%s)", str(fr, "module"));
	fprintf(out, ", from %u process%s (pid", g->npids, g->npids == 1 ? "" : "es");
	for (unsigned i = 0; i < g->npids && i < 16; i++)
		fprintf(out, " %ld", g->pids[i]);
	fprintf(out, "%s)\n", g->npids > 16 ? " ..." : "");
}

static void usage(void)
{
	fprintf(stderr, "usage: rwcheck-collect [--format=text|json] [--quiet] [--sarif=FILE] [--out=FILE] DIR\n");
}

/* --probe, run with the library preloaded: is it really in? */
static int probe(void)
{
	Dl_info info;
	void *f = dlsym(RTLD_DEFAULT, "read");

	if (f && dladdr(f, &info) && info.dli_fname && strstr(info.dli_fname, "librwcheck"))
		return 0;
	fprintf(stderr, "rwcheck: the library was not preloaded (read() is %s's)\n",
		f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : "unknown");
	return 3;
}

int main(int argc, char **argv)
{
	const char *format = "text", *sarif = NULL, *outpath = NULL, *dir = NULL;
	int quiet = 0, rc;
	struct run r = {0};
	struct dirent *de;
	FILE *out = stderr;
	DIR *d;
	size_t i;
	json_t *o;

	if (argc == 2 && strcmp(argv[1], "--probe") == 0)
		return probe();
	for (int a = 1; a < argc; a++) {
		if (strncmp(argv[a], "--format=", 9) == 0)
			format = argv[a] + 9;
		else if (strcmp(argv[a], "--quiet") == 0)
			quiet = 1;
		else if (strncmp(argv[a], "--sarif=", 8) == 0)
			sarif = argv[a] + 8;
		else if (strncmp(argv[a], "--out=", 6) == 0)
			outpath = argv[a] + 6;
		else if (argv[a][0] != '-' && !dir)
			dir = argv[a];
		else
			return usage(), 2;
	}
	if (!dir || (strcmp(format, "text") != 0 && strcmp(format, "json") != 0))
		return usage(), 2;
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "rwcheck: cannot read the log directory %s: %s\n", dir, strerror(errno));
		return 2;
	}
	r.other = json_array();
	r.reported = json_object();
	while ((de = readdir(d))) {
		char path[4096];
		if (strncmp(de->d_name, "rwcheck.", 8) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		read_log(&r, path);
	}
	closedir(d);
	collect_sort(&r);
	if (outpath && !(out = fopen(outpath, "ae"))) {
		fprintf(stderr, "rwcheck: cannot write %s: %s\n", outpath, strerror(errno));
		rc = 2;
		goto done;
	}
	json_array_foreach(r.other, i, o)
		fputs(json_string_value(o), out);
	if (!quiet) {
		for (i = 0; i < r.n; i++) {
			if (strcmp(format, "json") == 0) {
				char *s = json_dumps(r.g[i].first, JSON_COMPACT);
				if (s)
					fprintf(out, "%s\n", s);
				free(s);
			} else {
				fputs(str(r.g[i].first, "text"), out);
				if (json_object_get(r.g[i].first, "suppression"))
					fputs(str(r.g[i].first, "suppression"), out);
			}
		}
	}
	if (r.bad) {
		if (!quiet && r.n)
			fprintf(out, "rwcheck: bad calls by call site, most frequent first:\n");
		for (i = 0; !quiet && i < r.n; i++)
			print_site(out, &r.g[i]);
		fprintf(out, "rwcheck: %lu bad call%s from %zu call site%s in %zu process%s\n", r.bad,
			r.bad == 1 ? "" : "s", r.n, r.n == 1 ? "" : "s", r.npids, r.npids == 1 ? "" : "es");
	}
	if (out != stderr)
		fclose(out);
	rc = r.bad ? 1 : 0;
	if (sarif && sarif_write(&r, sarif, PACKAGE_VERSION) != 0) {
		fprintf(stderr, "rwcheck: cannot write the SARIF file %s: %s\n", sarif, strerror(errno));
		rc = 2;
	}
done:
	for (i = 0; i < r.n; i++) {
		free(r.g[i].key);
		json_decref(r.g[i].first);
	}
	free(r.g);
	free(r.pids);
	json_decref(r.other);
	json_decref(r.reported);
	return rc;
}
