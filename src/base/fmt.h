/* fmt.h: a bounded text builder for reports and warnings: strings,
 * decimal and hex numbers, JSON string escapes.  No stdio, no malloc;
 * signal-safe.  Output past the capacity is dropped and flagged. */
#ifndef RWC_FMT_H
#define RWC_FMT_H

#include <stddef.h>
#include <stdint.h>

struct rwc_fmt {
	char *p;
	size_t len, cap;
	int truncated;
};

void rwc_fmt_init(struct rwc_fmt *f, char *buf, size_t cap);
void rwc_fmt_str(struct rwc_fmt *f, const char *s);
void rwc_fmt_mem(struct rwc_fmt *f, const char *s, size_t n);
void rwc_fmt_char(struct rwc_fmt *f, char c);
void rwc_fmt_u64(struct rwc_fmt *f, uint64_t v);
void rwc_fmt_i64(struct rwc_fmt *f, int64_t v);
void rwc_fmt_hex(struct rwc_fmt *f, uint64_t v); /* 0x... */
/* A JSON string literal, quotes included. */
void rwc_fmt_json_str(struct rwc_fmt *f, const char *s);
/* "key": and the separating comma before it when needed. */
void rwc_fmt_json_key(struct rwc_fmt *f, int *first, const char *key);

#endif
