/* say.c: the wrapper's own lines (warnings, errors, what -v says), as
 * "rwcheck: [warning: ]TEXT" or, with --format=json, as one JSON object
 * {"KEY": "TEXT"} (KEY: warning, error, verbose), so that every line of
 * the wrapper's output is JSON there; on stderr.  And the modes that take
 * no log directory. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

int say_json;

static void say_line(const char *key, const char *text)
{
	json_t *s = json_string(text), *o;
	char *t = NULL;

	if (!s) /* (not UTF-8: as it is) */
		s = json_string_nocheck(text);
	o = s ? json_pack("{s:o}", key, s) : NULL;
	if (o)
		t = json_dumps(o, JSON_COMPACT);
	if (t)
		fprintf(stderr, "%s\n", t);
	free(t);
	json_decref(o);
}

void say(const char *key, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (say_json)
		say_line(key, text);
	else
		fprintf(stderr, "rwcheck: %s%s\n", strcmp(key, "warning") == 0 ? "warning: " : "", text);
	free(text);
}

int say_main(int argc, char **argv)
{
	int a = 1;

	if (argc > 1 && strncmp(argv[1], "--format=", 9) == 0) {
		say_json = strcmp(argv[1] + 9, "json") == 0;
		a = 2;
	}
	if (a + 1 == argc && strncmp(argv[a], "--check-supp=", 13) == 0)
		return supp_check(argv[a] + 13);
	if (a < argc && strncmp(argv[a], "--say=", 6) == 0) {
		for (int i = a + 1; i < argc; i++)
			say(argv[a] + 6, "%s", argv[i]);
		return 0;
	}
	say_json = 0;
	return -1;
}
