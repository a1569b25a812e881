/* objfmt.h: the object cache's file (objcache.h) as bytes: a module's
 * sorted table of global objects, written by one process and checked by
 * the next before use.  Pure: the unit tests call these directly. */
#ifndef RWC_OBJFMT_H
#define RWC_OBJFMT_H

#include <stddef.h>
#include <stdint.h>

#include "bounds/gobjs.h"

#define RWC_OC_MAXN ((size_t)16 << 20) /* objects: a larger table is not read */
/* The module's file as it is on disk (a copy, a stripped or rebuilt one
 * keeps the build-id but not these): the table is its file's. */
struct rwc_oc_ident {
	uint64_t dev, ino, size, mtime_s, mtime_ns;
};

/* A hash of F (the file's part of the cache file's name). */
uint64_t rwc_oc_ident_hash(const struct rwc_oc_ident *f);

/* The table as a file's bytes: a header (magic, count, the string
 * table's offset and size in the module's file, the file's identity), N
 * objects (start, end relative to the module's load bias, the name's
 * offset in the string table) and a checksum of all that, 64-bit words in
 * the machine's order. */
#define RWC_OC_HEAD 72u
#define RWC_OC_REC 24u
static inline size_t rwc_oc_size(size_t n)
{
	return RWC_OC_HEAD + n * RWC_OC_REC + 8;
}
/* Encodes O[0..n) (sorted, disjoint, names as string table offsets:
 * RWC_GOBJ_OFFSET) of the file ID, loaded at BIAS, into BUF
 * (rwc_oc_size(n) bytes, 8-byte aligned). */
void rwc_oc_encode(const struct rwc_gobj *o, size_t n, uintptr_t bias, uint64_t stroff, uint64_t strsize,
		   const struct rwc_oc_ident *id, unsigned char *buf);
/* The count the header at BUF (RWC_OC_HEAD bytes) says, when it is such a
 * file's header for the file ID and a file of LEN bytes; else SIZE_MAX. */
size_t rwc_oc_head(const unsigned char *buf, size_t len, const struct rwc_oc_ident *id);
/* Checks the LEN bytes at BUF (8-byte aligned) as such a file for the
 * file ID loaded at BIAS over [START, END) and turns them in place into
 * its table: returns the count and *TABLE (inside BUF), *STROFF and
 * *STRSIZE; 0 when they do not check. */
size_t rwc_oc_decode(unsigned char *buf, size_t len, const struct rwc_oc_ident *id, uintptr_t bias,
		     uintptr_t start, uintptr_t end, struct rwc_gobj **table, uint64_t *stroff, uint64_t *strsize);

#endif
