/* collect.c: the records of a run grouped by call site (same problem, same
 * entry point, same caller frames, whatever the process), and the summary
 * line of each site. */
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
 * its offset there, function and file:line (addresses change from process
 * to process; offsets in a module do not, and tell apart two calls that
 * share a function without line info, or a line). */
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
		int n = snprintf(k + len, cap - len, "|%s+%s:%s:%s:%lld", base(str(f, "module")),
				 str(f, "module_offset"), str(f, "function"), str(f, "file"),
				 (long long)json_integer_value(json_object_get(f, "line")));
		if (n < 0 || (size_t)n >= cap - len)
			break;
		len += (size_t)n;
	}
	return k;
}

/* What ties a repeat record to its report: process, caller address, the
 * library's site id (its callers too), entry point and problem. */
static void origin_key(char *k, size_t cap, json_t *rec)
{
	int n = snprintf(k, cap, "%lld|%s|%s|%s|", (long long)json_integer_value(json_object_get(rec, "pid")),
			 str(rec, "caller"), str(rec, "site"), str(rec, "problem"));

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

int collect_record(struct run *r, json_t *rec)
{
	long pid = (long)json_integer_value(json_object_get(rec, "pid"));
	struct group *g = NULL;
	char *key, origin[1024];
	json_t *gi;
	int made = 0;

	origin_key(origin, sizeof origin, rec);
	if (json_object_get(rec, "repeat")) {
		json_int_t n = json_integer_value(json_object_get(rec, "repeat"));
		if (json_is_true(json_object_get(rec, "suppressed")) || n <= 0)
			return -1;
		if ((gi = json_object_get(r->suppressed, origin))) {
			supps_add(r->supps, (int)json_integer_value(gi), (unsigned long)n);
			return -1;
		}
		gi = json_object_get(r->reported, origin);
		if (gi && (size_t)json_integer_value(gi) < r->n) {
			r->g[json_integer_value(gi)].count += (unsigned long)n;
			r->bad += (unsigned long)n;
		}
		return -1;
	}
	if (r->supps && (made = supps_match(r->supps, rec)) >= 0) {
		supps_add(r->supps, made, 1);
		json_object_set_new(r->suppressed, origin, json_integer(made));
		return -1;
	}
	made = 0;
	key = site_key(rec);
	if (!key)
		return 0;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->g[i].key, key) == 0)
			g = &r->g[i];
	if (!g) {
		if (r->n == r->cap) {
			struct group *ng = realloc(r->g, (r->cap ? r->cap * 2 : 16) * sizeof *ng);
			if (!ng) {
				free(key);
				return 0;
			}
			r->g = ng;
			r->cap = r->cap ? r->cap * 2 : 16;
		}
		g = &r->g[r->n++];
		memset(g, 0, sizeof *g);
		g->key = key;
		g->first = json_incref(rec);
		made = 1;
	} else {
		free(key);
	}
	json_object_set_new(r->reported, origin, json_integer((json_int_t)(g - r->g)));
	g->count++;
	group_pid(g, pid);
	r->bad++;
	add_pid(&r->pids, &r->npids, &r->pidcap, pid);
	return made;
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

/* Do the groups A and B show the same first K frames (function, file,
 * line, module and the offset in it)? */
static int same_frames(const struct group *a, const struct group *b, size_t k)
{
	json_t *fa = json_object_get(a->first, "frames"), *fb = json_object_get(b->first, "frames");

	if (json_array_size(fa) < k || json_array_size(fb) < k)
		return 0;
	for (size_t i = 0; i < k; i++) {
		json_t *x = json_array_get(fa, i), *y = json_array_get(fb, i);

		if (strcmp(str(x, "function"), str(y, "function")) != 0 || strcmp(str(x, "file"), str(y, "file")) != 0 ||
		    strcmp(base(str(x, "module")), base(str(y, "module"))) != 0 ||
		    json_integer_value(json_object_get(x, "line")) != json_integer_value(json_object_get(y, "line")) ||
		    strcmp(str(x, "module_offset"), str(y, "module_offset")) != 0)
			return 0;
	}
	return 1;
}

/* How many frames tell group I apart from the run's other groups of the
 * same problem and call (a helper that calls read for two callers: its
 * frame, then the callers'); 1 when its first does, at most 4. */
static size_t frames_to_tell(const struct run *r, size_t i)
{
	size_t k = 1, n = json_array_size(json_object_get(r->g[i].first, "frames"));

	for (size_t j = 0; j < r->n && k < n && k < 4; j++) {
		if (j == i || strcmp(str(r->g[i].first, "problem"), str(r->g[j].first, "problem")) != 0 ||
		    strcmp(str(r->g[i].first, "call"), str(r->g[j].first, "call")) != 0 ||
		    strcmp(str(r->g[i].first, "syscall"), str(r->g[j].first, "syscall")) != 0)
			continue;
		while (k < n && k < 4 && same_frames(&r->g[i], &r->g[j], k))
			k++;
	}
	return k;
}

static void print_frame(FILE *out, json_t *fr)
{
	fprintf(out, "%s", *str(fr, "function") ? str(fr, "function") : "??");
	if (*str(fr, "file"))
		fprintf(out, " (%s:%lld)", str(fr, "file"), (long long)json_integer_value(json_object_get(fr, "line")));
	else if (*str(fr, "module_offset")) /* as the text report's frame line */
		fprintf(out, " (%s+%s)", str(fr, "module"), str(fr, "module_offset"));
	else
		fprintf(out, " (%s)", str(fr, "module"));
}

void collect_print_site(FILE *out, const struct run *r, size_t i)
{
	const struct group *g = &r->g[i];
	json_t *frames = json_object_get(g->first, "frames"), *fr = json_array_get(frames, 0);
	const char *sys = str(g->first, "syscall");
	size_t k = fr ? frames_to_tell(r, i) : 0;

	fprintf(out, "rwcheck:   %lu x %s in %s(%s%s)", g->count, str(g->first, "problem"),
		str(g->first, "call"), *sys ? "SYS_" : "", sys);
	if (fr) {
		fprintf(out, " at ");
		print_frame(out, fr);
	} else { /* no backtrace (--backtrace=0): the caller's address */
		fprintf(out, " from %s", *str(g->first, "caller") ? str(g->first, "caller") : "an unknown caller");
	}
	for (size_t f = 1; f < k; f++) { /* the callers that tell it apart */
		fprintf(out, " < ");
		print_frame(out, json_array_get(frames, f));
	}
	fprintf(out, ", from %u process%s (pid", g->npids, g->npids == 1 ? "" : "es");
	for (unsigned p = 0; p < g->npids && p < 16; p++)
		fprintf(out, " %ld", g->pids[p]);
	fprintf(out, "%s)\n", g->npids > 16 ? " ..." : "");
}

