/* maps_parse.c: /proc/<pid>/maps parser (see maps_parse.h).  Pure,
 * signal-safe, never allocates. */
#include "config.h"

#include "mapview/maps_parse.h"
#include "base/checks.h"

#include <errno.h>
#include <string.h>

/* A hex digit's value plus one; 0 for anything else. */
static const unsigned char hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Parses hex digits at *p (at least one, at most 16). */
static int get_hex(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *q = *p, *start = q;
	unsigned d;

	while (q < end && (d = hexv[(unsigned char)*q]) != 0) {
		if (q - start == 16)
			return -1;
		v = (v << 4) | (d - 1);
		q++;
	}
	*p = q;
	*out = v;
	return q > start ? 0 : -1;
}

static int get_dec(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	while (*p < end && **p >= '0' && **p <= '9') {
		unsigned d = (unsigned)(**p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		n++;
		(*p)++;
	}
	*out = v;
	return n ? 0 : -1;
}

static int expect(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return -1;
	(*p)++;
	return 0;
}

static int get_perms(const char **p, const char *end, unsigned *prot)
{
	const char *s = *p;

	if (end - s < 4)
		return -1;
	*prot = 0;
	if (s[0] == 'r')
		*prot |= RWC_PROT_R;
	else if (s[0] != '-')
		return -1;
	if (s[1] == 'w')
		*prot |= RWC_PROT_W;
	else if (s[1] != '-')
		return -1;
	if (s[2] == 'x')
		*prot |= RWC_PROT_X;
	else if (s[2] != '-')
		return -1;
	if (s[3] == 's')
		*prot |= RWC_PROT_SHARED;
	else if (s[3] != 'p')
		return -1;
	*p = s + 4;
	return 0;
}

int rwc_maps_parse_line(const char *line, size_t len, struct rwc_map_entry *e)
{
	const char *p = line, *end = line + len;
	uint64_t start, stop, off, maj, min, ino;

	if (get_hex(&p, end, &start) || expect(&p, end, '-') ||
	    get_hex(&p, end, &stop) || expect(&p, end, ' ') ||
	    get_perms(&p, end, &e->prot) || expect(&p, end, ' ') ||
	    get_hex(&p, end, &off) || expect(&p, end, ' ') ||
	    get_hex(&p, end, &maj) || expect(&p, end, ':') ||
	    get_hex(&p, end, &min) || expect(&p, end, ' ') ||
	    get_dec(&p, end, &ino))
		return -1;
	if (stop < start || stop > UINTPTR_MAX || maj > 0xffffffffu || min > 0xffffffffu)
		return -1;
	if (p < end && *p != ' ')
		return -1;
	while (p < end && *p == ' ')
		p++;
	e->start = (uintptr_t)start;
	e->end = (uintptr_t)stop;
	e->offset = off;
	e->dev_major = (unsigned)maj;
	e->dev_minor = (unsigned)min;
	e->inode = ino;
	e->path = p;
	e->path_len = (size_t)(end - p);
	return 0;
}

static int emit(const char *line, size_t len, rwc_maps_cb cb, void *arg, unsigned *malformed)
{
	struct rwc_map_entry e;

	if (len == 0)
		return 0;
	if (rwc_maps_parse_line(line, len, &e)) {
		if (malformed)
			(*malformed)++;
		return 0;
	}
	return cb(&e, arg);
}

int rwc_maps_scan(int fd, rwc_read_fn rd, char *buf, size_t cap,
		  rwc_maps_cb cb, void *arg, unsigned *malformed)
{
	size_t have = 0;
	int skipping = 0; /* inside the tail of an over-long line */

	for (;;) {
		ssize_t n = rd(fd, buf + have, cap - have);
		size_t start = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			if (have && !skipping && emit(buf, have, cb, arg, malformed))
				return 1;
			return 0;
		}
		have += (size_t)n;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);
			size_t len;

			if (!nl)
				break;
			len = (size_t)(nl - (buf + start));
			if (skipping)
				skipping = 0;
			else if (emit(buf + start, len, cb, arg, malformed))
				return 1;
			start += len + 1;
		}
		if (start) {
			memmove(buf, buf + start, have - start);
			have -= start;
		}
		if (have == cap) {
			if (!skipping && emit(buf, have, cb, arg, malformed))
				return 1;
			skipping = 1;
			have = 0;
		}
	}
}
