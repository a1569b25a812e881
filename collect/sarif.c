/* sarif.c: the SARIF 2.1.0 log of a run: one result per call site, at the
 * caller's file:line, with the stack and how often and where it happened,
 * so that CI systems and code review tools show it inline. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "collect.h"

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

/* A URI reference for a path: file:// for absolute paths; percent-encoded. */
static json_t *uri(const char *path)
{
	char buf[8192];
	size_t n = 0;

	if (path[0] == '/')
		n = (size_t)snprintf(buf, sizeof buf, "file://");
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

static json_t *location(json_t *frame)
{
	json_t *loc = json_object();

	if (*str(frame, "file")) {
		json_int_t line = json_integer_value(json_object_get(frame, "line"));
		json_t *region = json_object();
		if (line > 0)
			json_object_set_new(region, "startLine", json_integer(line));
		json_object_set_new(loc, "physicalLocation",
				    json_pack("{s:{s:o},s:o}", "artifactLocation", "uri", uri(str(frame, "file")),
					      "region", region));
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
		if (!where && *str(f, "file"))
			where = location(f); /* the first frame with source: the caller's line */
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
		json_object_set_new(res, "partialFingerprints",
				    json_pack("{s:s}", "rwcheckCallSite/v1", g->key));
	return res;
}

const char *sarif_rule_name(int i)
{
	return i >= 0 && (size_t)i < NRULES ? rules[i].id : NULL;
}

int sarif_write(const struct run *r, const char *path, const char *version, const char *srcroot)
{
	json_t *ruleset = json_array(), *results = json_array(), *log;
	int rc;

	for (size_t i = 0; i < NRULES; i++)
		json_array_append_new(ruleset, json_pack("{s:s,s:{s:s},s:{s:s}}", "id", rules[i].id,
							 "shortDescription", "text", rules[i].text,
							 "defaultConfiguration", "level", "error"));
	for (size_t i = 0; i < r->n; i++) {
		json_t *res = result(&r->g[i]);
		if (res)
			json_array_append_new(results, res);
	}
	log = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:o}},s:o}]}",
			"$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			"runs", "tool", "driver", "name", "rwcheck", "version", version, "rules", ruleset,
			"results", results);
	if (!log)
		return -1;
	rc = json_dump_file(log, path, JSON_INDENT(1));
	json_decref(log);
	return rc;
}
