/* suppcheck.c: rwcheck-collect --check-supp=FILE, run by the wrapper
 * before the command starts: a suppressions file that cannot be read is
 * an error (exit 2, one line); binary data and a rwcheck:PROBLEM line that
 * matches no problem name give a warning with FILE:LINE (the library
 * would silently never match them), and so does a malformed suppression.
 * Exit 0 otherwise. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

/* Is LINE (N bytes) text?  No NUL, no control byte but tab and newline. */
static int is_text(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
			return 0;
	}
	return 1;
}

static void check_problem(const char *path, unsigned ln, char *name)
{
	size_t n = strcspn(name, " \t\r\n");

	name[n] = '\0';
	for (int i = 0; sarif_rule_name(i); i++)
		if (fnmatch(name, sarif_rule_name(i), 0) == 0)
			return;
	say("warning", "%s:%u: rwcheck:%s matches no problem name "
		       "(see rwcheck(1): buf-unmapped, heap-overflow, ...)", path, ln, name);
}

int supp_check(const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned ln = 0;

	if (!f) {
		say("error", "--suppressions=%s: cannot read it: %s", path, strerror(errno));
		return 2;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		char *s = line;
		ln++;
		if (!is_text(line, (size_t)n)) {
			say("warning", "%s:%u: binary data: not a suppressions file", path, ln);
			break;
		}
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "rwcheck:", 8) == 0)
			check_problem(path, ln, s + 8);
	}
	if (ferror(f))
		say("error", "--suppressions=%s: cannot read it: %s", path, strerror(errno));
	free(line);
	fclose(f);
	supps_free(supps_load(path, 0)); /* its syntax errors, as warnings */
	return 0;
}
