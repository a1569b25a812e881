/* suppmatch.c: the wrapper applies the suppressions file itself, with the
 * library's own parser and matcher (src/report/suppress.c), so that it
 * knows what each suppression suppressed: a report a suppression matches
 * is counted for it (its process's repeats too), never printed, never a
 * bad call.  (With --action=efault or abort the library applies the file,
 * since a suppressed call must not fail; nothing is counted then.) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "report/suppress.h"

#define MAXSUPPS 4096

struct supps {
	const char *path;
	char *text;
	struct rwc_supp *v;
	unsigned n;
	unsigned long *count;
	struct rwc_frame fr[64];
};

static void parse_error(unsigned line, const char *msg, void *arg)
{
	const struct supps *s = arg;

	if (s->count == NULL) /* (warnings only once: in --check-supp) */
		say("warning", "%s:%u: %s; that suppression is ignored", s->path, line, msg);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		char *nb = realloc(buf, cap + 65536 + 1);
		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
		cap += 65536;
	} while (n == 65536);
	fclose(f);
	return buf;
}

struct supps *supps_load(const char *path, int counting)
{
	struct supps *s = calloc(1, sizeof *s);
	size_t len;

	if (!s)
		return NULL;
	s->path = path;
	s->text = slurp(path, &len);
	s->v = calloc(MAXSUPPS, sizeof *s->v);
	if (!s->text || !s->v) {
		supps_free(s);
		return NULL;
	}
	s->n = rwc_supp_parse(s->text, len, s->v, MAXSUPPS, parse_error, s);
	if (counting)
		s->count = calloc(s->n + 1, sizeof *s->count);
	return s;
}

void supps_free(struct supps *s)
{
	if (!s)
		return;
	free(s->text);
	free(s->v);
	free(s->count);
	free(s);
}

static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

int supps_match(struct supps *s, json_t *rec)
{
	json_t *frames = json_object_get(rec, "frames"), *f;
	const char *problem = json_string_value(json_object_get(rec, "problem"));
	int n = 0;
	size_t i;

	if (!s || !problem)
		return -1;
	json_array_foreach(frames, i, f) {
		if (n == (int)(sizeof s->fr / sizeof s->fr[0]))
			break;
		memset(&s->fr[n], 0, sizeof s->fr[n]);
		copy(s->fr[n].module, sizeof s->fr[n].module, json_string_value(json_object_get(f, "module")));
		copy(s->fr[n].function, sizeof s->fr[n].function, json_string_value(json_object_get(f, "function")));
		copy(s->fr[n].file, sizeof s->fr[n].file, json_string_value(json_object_get(f, "file")));
		s->fr[n++].line = (int)json_integer_value(json_object_get(f, "line"));
	}
	for (unsigned k = 0; k < s->n; k++)
		if (rwc_supp_match(&s->v[k], problem, s->fr, n))
			return (int)k;
	return -1;
}

void supps_add(struct supps *s, int k, unsigned long n)
{
	if (s && s->count && k >= 0 && (unsigned)k < s->n)
		s->count[k] += n;
}

unsigned long supps_total(const struct supps *s, unsigned *entries)
{
	unsigned long t = 0;

	*entries = 0;
	for (unsigned k = 0; s && s->count && k < s->n; k++) {
		t += s->count[k];
		*entries += s->count[k] != 0;
	}
	return t;
}

void supps_print(const struct supps *s, FILE *out, int each)
{
	unsigned e;
	unsigned long t = supps_total(s, &e);

	if (!t)
		return;
	fprintf(out, "rwcheck: %lu bad call%s suppressed by %u suppression%s%s\n", t, t == 1 ? "" : "s", e,
		e == 1 ? "" : "s", each ? ":" : " (--show-suppressed lists them)");
	for (unsigned k = 0; each && k < s->n; k++)
		if (s->count[k])
			fprintf(out, "rwcheck:   %lu x suppressed by %s (%s:%u)\n", s->count[k], s->v[k].name,
				s->path, s->v[k].line);
}

json_t *supps_json(const struct supps *s)
{
	json_t *a = json_array();

	for (unsigned k = 0; s && s->count && k < s->n; k++)
		if (s->count[k])
			json_array_append_new(a, json_pack("{s:s,s:s,s:i,s:I}", "name", s->v[k].name, "file", s->path,
							   "line", (int)s->v[k].line, "count", (json_int_t)s->count[k]));
	return a;
}
