/* suppress.h: suppressions, in the form valgrind users know:
 *
 *   {
 *      a-name-for-it
 *      rwcheck:buf-unmapped          (a problem, a glob like buf-*, or *)
 *      fun:load_header               (one line per frame, from the caller
 *      src:short-read.c:23            outwards: fun: function, obj: module,
 *      ...                            src: file or file:line; ... stands for
 *   }                                 any number of frames)
 *
 * Patterns are fnmatch(3) globs; obj: and src: also match the basename.
 * Blank lines and lines starting with # are ignored.  The parser and the
 * matcher are pure (unit tests call them); they never allocate. */
#ifndef RWC_SUPPRESS_H
#define RWC_SUPPRESS_H

#include <stddef.h>

#include "frames/symbolize.h"

#define RWC_SUPP_FRAMES 24

struct rwc_supp_frame {
	char kind;        /* 'f' fun:, 'o' obj:, 's' src:, '.' ... */
	const char *pat;
};

struct rwc_supp {
	const char *name;
	const char *problem;  /* glob over the problem name */
	unsigned line;        /* where it starts in the file */
	unsigned nframes;
	struct rwc_supp_frame frames[RWC_SUPP_FRAMES];
};

typedef void (*rwc_supp_err_fn)(unsigned line, const char *msg, void *arg);

/* Parses TEXT (LEN bytes, NUL-terminated, modified in place: the patterns
 * point into it) into OUT[0..cap).  A malformed suppression gives one ERR
 * call naming its line and is skipped.  Returns how many were parsed. */
unsigned rwc_supp_parse(char *text, size_t len, struct rwc_supp *out, unsigned cap,
			rwc_supp_err_fn err, void *arg);

/* Does S match a report of PROBLEM with frames FR[0..n) (caller first)? */
int rwc_supp_match(const struct rwc_supp *s, const char *problem, const struct rwc_frame *fr, int n);

/* Writes a suppression matching PROBLEM and FR[0..n) into OUT (at most
 * CAP bytes, NUL-terminated): what --gen-suppressions prints. */
void rwc_supp_generate(char *out, size_t cap, const char *problem, const struct rwc_frame *fr, int n);

#endif
