/* fmt.c: bounded text builder (see fmt.h).  Signal-safe, no allocation. */
#include "config.h"

#include "base/fmt.h"

#include <string.h>

void rwc_fmt_init(struct rwc_fmt *f, char *buf, size_t cap)
{
	f->p = buf;
	f->len = 0;
	f->cap = cap;
	f->truncated = 0;
	if (cap)
		buf[0] = '\0';
}

void rwc_fmt_mem(struct rwc_fmt *f, const char *s, size_t n)
{
	if (f->cap == 0)
		return;
	if (n > f->cap - 1 - f->len) {
		n = f->cap - 1 - f->len;
		f->truncated = 1;
	}
	memcpy(f->p + f->len, s, n);
	f->len += n;
	f->p[f->len] = '\0';
}

void rwc_fmt_str(struct rwc_fmt *f, const char *s)
{
	rwc_fmt_mem(f, s, strlen(s));
}

void rwc_fmt_char(struct rwc_fmt *f, char c)
{
	rwc_fmt_mem(f, &c, 1);
}

void rwc_fmt_u64(struct rwc_fmt *f, uint64_t v)
{
	char b[24];
	size_t i = sizeof b;

	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rwc_fmt_mem(f, b + i, sizeof b - i);
}

void rwc_fmt_i64(struct rwc_fmt *f, int64_t v)
{
	if (v < 0) {
		rwc_fmt_char(f, '-');
		rwc_fmt_u64(f, (uint64_t)0 - (uint64_t)v);
	} else {
		rwc_fmt_u64(f, (uint64_t)v);
	}
}

void rwc_fmt_hex(struct rwc_fmt *f, uint64_t v)
{
	char b[18];
	size_t i = sizeof b;

	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	rwc_fmt_mem(f, b + i, sizeof b - i);
}

void rwc_fmt_json_str(struct rwc_fmt *f, const char *s)
{
	rwc_fmt_char(f, '"');
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\') {
			rwc_fmt_char(f, '\\');
			rwc_fmt_char(f, (char)*c);
		} else if (*c < 0x20 || *c == 0x7f) {
			char u[7] = {'\\', 'u', '0', '0', "0123456789abcdef"[*c >> 4],
				     "0123456789abcdef"[*c & 15], 0};
			rwc_fmt_str(f, u);
		} else {
			rwc_fmt_char(f, (char)*c);
		}
	}
	rwc_fmt_char(f, '"');
}

void rwc_fmt_json_key(struct rwc_fmt *f, int *first, const char *key)
{
	if (!*first)
		rwc_fmt_char(f, ',');
	*first = 0;
	rwc_fmt_json_str(f, key);
	rwc_fmt_char(f, ':');
}
