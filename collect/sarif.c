/* sarif.c: the SARIF 2.1.0 log of a run: one result per call site, at the
 * first frame in the user's code (file:line; else module and function),
 * with the stack and how often and where it happened, so that CI systems
 * and code review tools show it inline.  URIs are relative to the SRCROOT
 * uriBaseId where they can be; each result's fingerprint hashes problem,
 * call and the frames' functions only (no path, no line: stable across
 * commits).  Parallel wrappers of one run (make -j check with
 * LOG_COMPILER) share the file: each merges its results into what is there
 * under an exclusive flock(2) on the file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "collect.h"

#ifndef RWC_MANDIR /* (set by Makefile.am) */
#define RWC_MANDIR "/usr/local/share/man"
#endif

static const struct {
	const char *id, *text;
} rules[] = {
	{"buf-unmapped", "The requested buffer range reaches unmapped memory."},
	{"buf-not-writable", "A read-like call's buffer range reaches memory that is not writable."},
	{"buf-not-readable", "A write-like call's buffer range reaches memory that is not readable."},
	{"iov-array-bad", "The iovec array (or msghdr) of a vector call is not readable."},
	{"offset-negative", "A positional call's file offset is negative."},
	{"offset-overflow", "offset + count overflows a signed 64-bit file offset."},
	{"count-too-large", "The count is larger than SSIZE_MAX."},
	{"iovcnt-invalid", "iovcnt is negative or larger than IOV_MAX."},
	{"iov-len-overflow", "The iovec lengths add up past SSIZE_MAX."},
	{"heap-overflow", "The range runs past the malloc block the buffer points into."},
	{"stack-overflow", "The range runs past the stack variable (or, without DWARF, the stack frame) that holds the buffer."},
	{"global-overflow", "The range runs past the global or static object that holds the buffer."},
	{"use-after-free", "A byte of the range lies in a heap block the program freed."},
};
#define NRULES (sizeof rules / sizeof rules[0])

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static const char *root = ""; /* SRCROOT: absolute, no trailing '/' */

/* A URI reference for a path: file:// for absolute paths; percent-encoded. */
static json_t *uri(const char *path)
{
	char buf[8192];
	size_t n = 0;

	if (path[0] == '/')
		n = (size_t)snprintf(buf, sizeof buf, "file://");
	if (path[0] == '/' && path[1] == '/')
		path++;
	for (const unsigned char *p = (const unsigned char *)path; *p && n + 4 < sizeof buf; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~+", *p))
			buf[n++] = (char)*p;
		else
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%%%02X", *p);
	}
	buf[n] = '\0';
	return json_string(buf);
}

/* An artifactLocation: relative to SRCROOT when the path is relative
 * (compilers record them relative to the build directory) or under it. */
static json_t *artifact(const char *path)
{
	size_t n = strlen(root);

	if (path[0] != '/')
		return json_pack("{s:o,s:s}", "uri", uri(path), "uriBaseId", "SRCROOT");
	if (n && strncmp(path, root, n) == 0 && path[n] == '/')
		return json_pack("{s:o,s:s}", "uri", uri(path + n + 1), "uriBaseId", "SRCROOT");
	return json_pack("{s:o}", "uri", uri(path));
}

static json_t *location(json_t *frame)
{
	json_t *loc = json_object();

	if (*str(frame, "file")) {
		json_int_t line = json_integer_value(json_object_get(frame, "line"));
		json_t *region = json_object();
		if (line > 0)
			json_object_set_new(region, "startLine", json_integer(line));
		json_object_set_new(loc, "physicalLocation",
				    json_pack("{s:o,s:o}", "artifactLocation", artifact(str(frame, "file")),
					      "region", region));
	} else if (*str(frame, "module")) {
		json_object_set_new(loc, "physicalLocation",
				    json_pack("{s:o}", "artifactLocation", artifact(str(frame, "module"))));
	}
	if (*str(frame, "function"))
		json_object_set_new(loc, "logicalLocations",
				    json_pack("[{s:s,s:s}]", "name", str(frame, "function"), "kind", "function"));
	return loc;
}

static int rule_index(const char *id)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* Is the frame in the user's code: source known, not in a system library
 * (glibc's own frames carry its sources' relative paths) nor rwcheck? */
static int users_module(json_t *f)
{
	const char *m = str(f, "module");

	return strncmp(m, "/usr/lib", 8) != 0 && strncmp(m, "/lib", 4) != 0 && !strstr(m, "librwcheck");
}

static int users(json_t *f)
{
	return *str(f, "file") && users_module(f);
}

/* FNV-1a, 64 bits, as 16 hex digits. */
static void hash_add(unsigned long long *h, const char *s)
{
	for (; *s; s++)
		*h = (*h ^ (unsigned char)*s) * 1099511628211ULL;
	*h = (*h ^ '|') * 1099511628211ULL;
}

/* The call site's fingerprint: problem, call (+ syscall), and the
 * functions from the call out to the first frame in the user's module (the
 * outer frames, libc's start-up and the like, vary with the backtrace
 * depth and the libc version). */
static json_t *fingerprint(json_t *rep)
{
	unsigned long long h = 14695981039346656037ULL;
	char hex[17];
	size_t i;
	json_t *f;

	hash_add(&h, str(rep, "problem"));
	hash_add(&h, str(rep, "call"));
	hash_add(&h, str(rep, "syscall"));
	json_array_foreach(json_object_get(rep, "frames"), i, f) {
		hash_add(&h, str(f, "function"));
		if (users_module(f))
			break;
	}
	snprintf(hex, sizeof hex, "%016llx", h);
	return json_pack("{s:s}", "rwcheckCallSite/v2", hex);
}

static json_t *result(const struct group *g)
{
	json_t *rep = g->first, *frames = json_object_get(rep, "frames"), *f, *stack = json_array();
	json_t *pids = json_array(), *res, *where = NULL;
	char msg[1024];
	size_t i;

	snprintf(msg, sizeof msg, "%s: %s [%s]", str(rep, "call"), str(rep, "message"), str(rep, "problem"));
	json_array_foreach(frames, i, f) {
		json_t *sf = json_pack("{s:o}", "location", location(f));
		if (*str(f, "module"))
			json_object_set_new(sf, "module", json_string(str(f, "module")));
		json_array_append_new(stack, sf);
		if (!where && users(f))
			where = location(f);
	}
	json_array_foreach(frames, i, f) /* else the user's module and function */
		if (!where && users_module(f)) {
			json_t *bare = json_pack("{s:s,s:s}", "module", str(f, "module"), "function", str(f, "function"));
			where = location(bare);
			json_decref(bare);
		}
	if (!where)
		where = json_array_size(frames) ? location(json_array_get(frames, 0)) : json_object();
	for (unsigned k = 0; k < g->npids && k < 16; k++)
		json_array_append_new(pids, json_integer(g->pids[k]));
	res = json_pack("{s:s,s:s,s:{s:s},s:[o],s:[{s:{s:s},s:o}],s:{s:I,s:i,s:o}}",
			"ruleId", str(rep, "problem"), "level", "error",
			"message", "text", msg,
			"locations", where,
			"stacks", "message", "text", "call stack of the bad call", "frames", stack,
			"properties", "count", (json_int_t)g->count, "processes", (int)g->npids, "pids", pids);
	if (res && rule_index(str(rep, "problem")) >= 0)
		json_object_set_new(res, "ruleIndex", json_integer(rule_index(str(rep, "problem"))));
	if (res)
		json_object_set_new(res, "partialFingerprints", fingerprint(rep));
	return res;
}

const char *sarif_rule_name(int i)
{
	return i >= 0 && (size_t)i < NRULES ? rules[i].id : NULL;
}

static json_int_t prop(json_t *res, const char *k)
{
	return json_integer_value(json_object_get(json_object_get(res, "properties"), k));
}

static const char *fp(json_t *res)
{
	return str(json_object_get(res, "partialFingerprints"), "rwcheckCallSite/v2");
}

/* OLD's rwcheck results into RESULTS: the same call site (fingerprint)
 * adds its counts and processes, another is kept as it was. */
static void merge(json_t *results, json_t *old)
{
	json_t *run = json_array_get(json_object_get(old, "runs"), 0), *o, *n;
	size_t i, j;

	if (strcmp(str(json_object_get(json_object_get(run, "tool"), "driver"), "name"), "rwcheck") != 0)
		return;
	json_array_foreach(json_object_get(run, "results"), i, o) {
		json_t *same = NULL;
		json_array_foreach(results, j, n)
			if (!same && *fp(o) && strcmp(fp(o), fp(n)) == 0)
				same = n;
		if (!same) {
			json_array_append(results, o);
			continue;
		}
		json_t *pr = json_object_get(same, "properties"), *pids = json_object_get(pr, "pids"), *p;
		json_object_set_new(pr, "count", json_integer(prop(same, "count") + prop(o, "count")));
		json_object_set_new(pr, "processes", json_integer(prop(same, "processes") + prop(o, "processes")));
		json_array_foreach(json_object_get(json_object_get(o, "properties"), "pids"), j, p)
			if (json_array_size(pids) < 16)
				json_array_append(pids, p);
	}
}

static int by_count(const void *a, const void *b)
{
	json_int_t x = prop(*(json_t *const *)a, "count"), y = prop(*(json_t *const *)b, "count");
	return x < y ? 1 : x > y ? -1 : 0;
}

/* RESULTS, most frequent first. */
static json_t *sorted(json_t *results)
{
	size_t n = json_array_size(results), i;
	json_t **v = calloc(n + 1, sizeof(json_t *)), *out = json_array();

	if (!v)
		return results;
	for (i = 0; i < n; i++)
		v[i] = json_array_get(results, i);
	qsort(v, n, sizeof(json_t *), by_count);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(results);
	return out;
}

static json_t *log_of(json_t *results, const char *version)
{
	json_t *ruleset = json_array(), *base;
	char *u = malloc(strlen(root) + 16);

	for (size_t i = 0; i < NRULES; i++)
		json_array_append_new(ruleset, json_pack("{s:s,s:{s:s},s:{s:s}}", "id", rules[i].id,
							 "shortDescription", "text", rules[i].text,
							 "defaultConfiguration", "level", "error"));
	if (u)
		sprintf(u, "%s/", root);
	base = json_pack("{s:{s:o}}", "SRCROOT", "uri", uri(u ? u : "/"));
	free(u);
	return json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:o}},s:o,s:o}]}",
			 "$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			 "runs", "tool", "driver", "name", "rwcheck", "version", version,
			 "informationUri", "file://" RWC_MANDIR "/man1/rwcheck.1", "rules", ruleset,
			 "originalUriBaseIds", base, "results", results);
}

/* Reads what FD holds (NULL: nothing, or not JSON). */
static json_t *load(int fd)
{
	json_error_t e;
	json_t *old;
	FILE *f = fdopen(dup(fd), "r");

	if (!f)
		return NULL;
	old = json_loadf(f, 0, &e);
	fclose(f);
	return old;
}

int sarif_write(const struct run *r, const char *path, const char *version, const char *srcroot)
{
	json_t *results = json_array(), *log, *old;
	char cwd[4096], *text;
	int fd, rc = -1, e;
	size_t len;

	root = srcroot ? srcroot : getcwd(cwd, sizeof cwd) ? cwd : "";
	if (strcmp(root, "/") == 0)
		root = "";
	for (size_t i = 0; i < r->n; i++) {
		json_t *res = result(&r->g[i]);
		if (res)
			json_array_append_new(results, res);
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || flock(fd, LOCK_EX) != 0) {
		e = errno;
		json_decref(results);
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	old = load(fd);
	if (old)
		merge(results, old);
	json_decref(old);
	log = log_of(sorted(results), version);
	text = log ? json_dumps(log, JSON_INDENT(1)) : NULL;
	len = text ? strlen(text) : 0;
	if (text && ftruncate(fd, 0) == 0 && pwrite(fd, text, len, 0) == (ssize_t)len && pwrite(fd, "\n", 1, (off_t)len) == 1)
		rc = 0;
	e = errno;
	free(text);
	json_decref(log);
	close(fd); /* (and the lock goes) */
	errno = e;
	return rc;
}
