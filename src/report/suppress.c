/* suppress.c: parsing and matching suppressions (see suppress.h).  Pure;
 * no allocation; fnmatch(3) for the globs. */
#include "config.h"

#include "report/suppress.h"

#include <fnmatch.h>
#include <string.h>

#include "base/fmt.h"

#define NESTED "'{' inside a suppression: a '}' is missing above"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Next line of the text at *p, trimmed, with its number; NULL at the end. */
static char *next_line(char **p, unsigned *lineno)
{
	char *s = *p, *nl;

	if (!s || !*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = s + strlen(s);
	}
	(*lineno)++;
	return trim(s);
}

static int ignorable(const char *l)
{
	return *l == '\0' || *l == '#';
}

/* Parses one block after its '{'; 0, or the error message. */
static const char *parse_block(char **p, unsigned *lineno, struct rwc_supp *s)
{
	char *l;

	s->nframes = 0;
	s->name = s->problem = NULL;
	while ((l = next_line(p, lineno))) {
		if (ignorable(l))
			continue;
		if (strcmp(l, "}") == 0)
			return s->problem ? NULL : "a suppression needs a name and a line rwcheck:PROBLEM";
		if (!s->name) {
			s->name = l;
		} else if (!s->problem) {
			if (strncmp(l, "rwcheck:", 8) != 0 || !l[8])
				return "expected rwcheck:PROBLEM after the name (PROBLEM a problem name or a glob)";
			s->problem = l + 8;
		} else if (s->nframes >= RWC_SUPP_FRAMES) {
			return "too many frame lines (at most 24)";
		} else if (strcmp(l, "...") == 0) {
			s->frames[s->nframes].kind = '.';
			s->frames[s->nframes++].pat = l;
		} else if ((strncmp(l, "fun:", 4) == 0 || strncmp(l, "obj:", 4) == 0 ||
			    strncmp(l, "src:", 4) == 0) && l[4]) {
			s->frames[s->nframes].kind = l[0] == 'f' ? 'f' : l[0] == 'o' ? 'o' : 's';
			s->frames[s->nframes++].pat = l + 4;
		} else if (strcmp(l, "{") == 0) {
			return NESTED;
		} else {
			return "expected fun:PATTERN, obj:PATTERN, src:PATTERN, ... or '}'";
		}
	}
	return "the file ends inside a suppression: '}' missing";
}

unsigned rwc_supp_parse(char *text, size_t len, struct rwc_supp *out, unsigned cap,
			rwc_supp_err_fn err, void *arg)
{
	char *p = text, *l;
	unsigned lineno = 0, n = 0;
	int opened = 0; /* a '{' was read as part of the previous block */

	text[len] = '\0';
	while (opened || (l = next_line(&p, &lineno))) {
		unsigned start = lineno;
		const char *msg;

		if (!opened) {
			if (ignorable(l))
				continue;
			if (strcmp(l, "{") != 0) {
				err(lineno, "expected '{' to start a suppression", arg);
				continue;
			}
		}
		opened = 0;
		if (n >= cap) {
			err(lineno, "too many suppressions; the rest are ignored", arg);
			break;
		}
		msg = parse_block(&p, &lineno, &out[n]);
		if (msg == NULL) {
			out[n++].line = start;
			continue;
		}
		err(lineno, msg, arg);
		if (strcmp(msg, NESTED) == 0) {
			opened = 1; /* that '{' starts the next one */
			continue;
		}
		/* resynchronize after the end of the broken block */
		while (strcmp(msg, "the file ends inside a suppression: '}' missing") != 0 &&
		       (l = next_line(&p, &lineno)) && strcmp(l, "}") != 0)
			;
	}
	return n;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

static int glob(const char *pat, const char *s)
{
	return s && *s && fnmatch(pat, s, 0) == 0;
}

static int frame_matches(const struct rwc_supp_frame *sf, const struct rwc_frame *f)
{
	char buf[600];
	struct rwc_fmt o;

	switch (sf->kind) {
	case 'f':
		return glob(sf->pat, f->function);
	case 'o':
		return glob(sf->pat, f->module) || glob(sf->pat, base(f->module));
	case 's':
		if (!f->file[0])
			return 0;
		if (glob(sf->pat, f->file) || glob(sf->pat, base(f->file)))
			return 1;
		rwc_fmt_init(&o, buf, sizeof buf);
		rwc_fmt_str(&o, f->file);
		rwc_fmt_char(&o, ':');
		rwc_fmt_i64(&o, f->line);
		return glob(sf->pat, buf) || glob(sf->pat, base(buf));
	}
	return 0;
}

static int match_from(const struct rwc_supp *s, unsigned si, const struct rwc_frame *fr, int fi, int n)
{
	if (si == s->nframes)
		return 1; /* a prefix of the frames is enough */
	if (s->frames[si].kind == '.') {
		for (int k = fi; k <= n; k++)
			if (match_from(s, si + 1, fr, k, n))
				return 1;
		return 0;
	}
	return fi < n && frame_matches(&s->frames[si], &fr[fi]) && match_from(s, si + 1, fr, fi + 1, n);
}

int rwc_supp_match(const struct rwc_supp *s, const char *problem, const struct rwc_frame *fr, int n)
{
	if (!s->problem || !problem)
		return 0;
	return fnmatch(s->problem, problem, 0) == 0 && match_from(s, 0, fr, 0, n);
}

/* S as a glob that matches it alone: fnmatch's specials escaped (a C++
 * name's `char*`, `operator[]`, `[clone .isra.0]`). */
static void literal(struct rwc_fmt *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '?' || *s == '[' || *s == ']' || *s == '\\')
			rwc_fmt_char(o, '\\');
		rwc_fmt_char(o, *s);
	}
}

void rwc_supp_generate(char *out, size_t cap, const char *problem, const struct rwc_frame *fr, int n)
{
	struct rwc_fmt o;

	rwc_fmt_init(&o, out, cap);
	rwc_fmt_str(&o, "{\n   <insert_a_suppression_name_here>\n   rwcheck:");
	rwc_fmt_str(&o, problem);
	rwc_fmt_char(&o, '\n');
	for (int i = 0; i < n; i++) {
		if (fr[i].function[0]) {
			rwc_fmt_str(&o, "   fun:");
			literal(&o, fr[i].function);
		} else if (fr[i].module[0]) {
			rwc_fmt_str(&o, "   obj:");
			literal(&o, fr[i].module);
		} else {
			rwc_fmt_str(&o, "   ...");
		}
		rwc_fmt_char(&o, '\n');
	}
	rwc_fmt_str(&o, "}\n");
}
