/* follow.c: reads the per-process logs of a run's directory
 * (DIR/rwcheck.PID.json) as they grow, complete lines only, adds each
 * record to the run and prints each new call site's report at once (or
 * every report, for --dedup=0) and every warning line; in JSON mode every
 * line printed is a JSON object (a text warning becomes {"warning":...}). */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
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

/* A copy of the JSON text S with ".0" after each integer past what
 * jansson's integers hold (INT64_MAX: a read of (size_t)-1 bytes, an
 * iovcnt of -1 as the library writes them, unsigned): read as reals,
 * the other numbers exact.  NULL: none such, or no memory. */
static char *big_as_real(const char *s)
{
	static const char max[] = "9223372036854775807";
	size_t n = strlen(s), k = 0;
	char *out = NULL;
	int in_str = 0, changed = 0;

	if (n > SIZE_MAX / 3 || !(out = malloc(n * 3 + 1)))
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i, d;

		if (in_str || !(s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) || (i && !strchr(":,[ \t", s[i - 1]))) {
			if (s[i] == '"') {
				size_t b = 0;

				while (b < i && s[i - 1 - b] == '\\')
					b++;
				in_str = (b % 2) ? in_str : !in_str;
			}
			out[k++] = s[i++];
			continue;
		}
		j += s[j] == '-';
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		d = j - i - (s[i] == '-');
		memcpy(out + k, s + i, j - i);
		k += j - i;
		if ((d > 19 || (d == 19 && memcmp(s + j - 19, max, 19) > 0)) && (j == n || !strchr(".eE", s[j]))) {
			memcpy(out + k, ".0", 2);
			k += 2;
			changed = 1;
		}
		i = j;
	}
	out[k] = '\0';
	if (!changed) {
		free(out);
		return NULL;
	}
	return out;
}

/* A line of the log as JSON, or NULL (a record with a count past
 * jansson's integers is kept: big_as_real). */
static json_t *parse(const char *s)
{
	json_t *rec;
	char *t;

	if (s[0] != '{')
		return NULL;
	if ((rec = json_loads(s, JSON_DECODE_ANY, NULL)) || !(t = big_as_real(s)))
		return rec;
	rec = json_loads(t, JSON_DECODE_ANY, NULL);
	free(t);
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
