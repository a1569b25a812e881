/* follow.c: reads the per-process logs of a run's directory
 * (DIR/rwcheck.PID.json) as they grow, complete lines only, adds each
 * record to the run and prints each new call site's report at once (or
 * every report, for --dedup=0) and every warning line; in JSON mode every
 * line printed is a JSON object (a text warning becomes {"warning":...}). */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static void print_json(FILE *out, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);

	if (s)
		fprintf(out, "%s\n", s);
	free(s);
}

static void print_report(struct follow *fl, json_t *rec)
{
	if (fl->json) {
		print_json(fl->out, rec);
		return;
	}
	fputs(str(rec, "text"), fl->out);
	if (json_object_get(rec, "suppression"))
		fputs(str(rec, "suppression"), fl->out);
}

/* A line that is no report: a warning (text, or the library's JSON form). */
static void print_other(struct follow *fl, const char *line, json_t *obj)
{
	if (fl->json) {
		json_t *w;
		size_t n = strlen(line);

		if (obj) {
			print_json(fl->out, obj);
			return;
		}
		w = json_pack("{s:s%}", "warning", line, n && line[n - 1] == '\n' ? n - 1 : n);
		if (w)
			print_json(fl->out, w);
		json_decref(w);
	} else if (obj) {
		fputs(*str(obj, "text") ? str(obj, "text") : line, fl->out);
	} else {
		fputs(line, fl->out);
	}
}

/* Back to integers: every number of V (read as reals) that is a whole
 * one jansson's integers hold. */
static void whole_numbers(json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, k, x) {
			double d = json_real_value(x);

			if (json_is_real(x) && d == (double)(json_int_t)d && d > -9.2e18 && d < 9.2e18)
				json_object_set_new(v, k, json_integer((json_int_t)d));
			else
				whole_numbers(x);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			double d = json_real_value(x);

			if (json_is_real(x) && d == (double)(json_int_t)d && d > -9.2e18 && d < 9.2e18)
				json_array_set_new(v, i, json_integer((json_int_t)d));
			else
				whole_numbers(x);
		}
	}
}

/* A line of the log as JSON, or NULL.  A count or an iovcnt past what
 * jansson's integers hold (a read of (size_t)-1 bytes, an iovcnt of -1
 * passed as a long: the library writes the unsigned value) is read as a
 * real rather than losing the record. */
static json_t *parse(const char *s)
{
	json_t *rec;

	if (s[0] != '{')
		return NULL;
	if ((rec = json_loads(s, JSON_DECODE_ANY, NULL)) || !(rec = json_loads(s, JSON_DECODE_INT_AS_REAL, NULL)))
		return rec;
	whole_numbers(rec);
	return rec;
}

static void line(struct follow *fl, const char *s)
{
	json_t *rec = parse(s);

	if (rec && json_is_object(rec) && json_object_get(rec, "unchecked_exec")) {
		if (fl->pt) /* (counted, not printed) */
			ptree_note_exec(fl->pt, (long)json_integer_value(json_object_get(rec, "pid")),
					str(rec, "unchecked_exec"));
	} else if (rec && json_is_object(rec) && (json_object_get(rec, "problem") || json_object_get(rec, "repeat"))) {
		int made = collect_record(fl->r, rec);
		if (!fl->quiet && (made > 0 || (made == 0 && fl->every)))
			print_report(fl, rec);
	} else if (s[0] && s[0] != '\n') {
		print_other(fl, s, rec && json_is_object(rec) ? rec : NULL);
	}
	json_decref(rec);
}

static struct seen *seen(struct follow *fl, const char *name)
{
	for (size_t i = 0; i < fl->nfiles; i++)
		if (strcmp(fl->files[i].name, name) == 0)
			return &fl->files[i];
	if (fl->nfiles == fl->cap) {
		struct seen *n = realloc(fl->files, (fl->cap ? fl->cap * 2 : 16) * sizeof *n);
		if (!n)
			return NULL;
		fl->files = n;
		fl->cap = fl->cap ? fl->cap * 2 : 16;
	}
	fl->files[fl->nfiles].name = strdup(name);
	fl->files[fl->nfiles].off = 0;
	return fl->files[fl->nfiles].name ? &fl->files[fl->nfiles++] : NULL;
}

static void scan_file(struct follow *fl, struct seen *sn, const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	if (fseeko(f, (off_t)sn->off, SEEK_SET) == 0) {
		while ((n = getline(&buf, &cap, f)) > 0 && buf[n - 1] == '\n') {
			sn->off += n; /* (a line still being written waits) */
			line(fl, buf);
		}
	}
	free(buf);
	fclose(f);
}

void follow_scan(struct follow *fl)
{
	DIR *d = opendir(fl->dir);
	struct dirent *de;
	char path[4096];

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct seen *sn;
		if (strncmp(de->d_name, "rwcheck.", 8) != 0 || !(sn = seen(fl, de->d_name)))
			continue;
		snprintf(path, sizeof path, "%s/%s", fl->dir, de->d_name);
		scan_file(fl, sn, path);
	}
	closedir(d);
	fflush(fl->out);
}

void follow_free(struct follow *fl)
{
	for (size_t i = 0; i < fl->nfiles; i++)
		free(fl->files[i].name);
	free(fl->files);
	fl->files = NULL;
	fl->nfiles = fl->cap = 0;
}
