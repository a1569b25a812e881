/* objfmt.c: the object cache's file format (see objfmt.h).  Pure. */
#include "config.h"

#include "bounds/objfmt.h"

#include <string.h>

#define MAGIC 0x32534a424f435752ull /* "RWCOBJS2" */
#define PRIME 0x100000001b3ull

/* The checksum over 64-bit words: each step a bijection of the running
 * value, so a change of any one word changes the result.  RUN: the
 * running value after W[0..n) from H; FINISH: the checksum. */
#define SEED 0xcbf29ce484222325ull
static uint64_t run(uint64_t h, const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ w[i]) * PRIME;
	return h;
}

static uint64_t finish(uint64_t h)
{
	return h ^ (h >> 29);
}

uint64_t rwc_oc_ident_hash(const struct rwc_oc_ident *f)
{
	const uint64_t w[5] = {f->dev, f->ino, f->size, f->mtime_s, f->mtime_ns};

	return finish(run(SEED, w, 5));
}

void rwc_oc_encode(const struct rwc_gobj *o, size_t n, uintptr_t bias, uint64_t stroff, uint64_t strsize,
		   const struct rwc_oc_ident *id, unsigned char *buf)
{
	uint64_t *w = (uint64_t *)(void *)buf;
	size_t k = RWC_OC_HEAD / 8;

	w[0] = MAGIC, w[1] = n, w[2] = stroff, w[3] = strsize;
	w[4] = id->dev, w[5] = id->ino, w[6] = id->size, w[7] = id->mtime_s, w[8] = id->mtime_ns;
	for (size_t i = 0; i < n; i++) {
		w[k++] = o[i].lo - bias;
		w[k++] = o[i].hi - bias;
		w[k++] = (uintptr_t)o[i].name & ~RWC_GOBJ_OFFSET;
	}
	w[k] = finish(run(SEED, w, k));
}

size_t rwc_oc_head(const unsigned char *buf, size_t len, const struct rwc_oc_ident *id)
{
	uint64_t w[RWC_OC_HEAD / 8];

	memcpy(w, buf, sizeof w);
	if (len < rwc_oc_size(0) || w[0] != MAGIC || w[1] > RWC_OC_MAXN || len != rwc_oc_size((size_t)w[1]) ||
	    w[4] != id->dev || w[5] != id->ino || w[6] != id->size || w[7] != id->mtime_s || w[8] != id->mtime_ns)
		return SIZE_MAX;
	return (size_t)w[1];
}

size_t rwc_oc_decode(unsigned char *buf, size_t len, const struct rwc_oc_ident *id, uintptr_t bias,
		     uintptr_t start, uintptr_t end, struct rwc_gobj **table, uint64_t *stroff, uint64_t *strsize)
{
	uint64_t *w = (uint64_t *)(void *)buf, h;
	struct rwc_gobj *o = (struct rwc_gobj *)(void *)(buf + RWC_OC_HEAD);
	size_t n = rwc_oc_head(buf, len, id);
	uintptr_t prev = start;

	_Static_assert(sizeof(struct rwc_gobj) == RWC_OC_REC, "a record is an object, in place");
	if (n == SIZE_MAX)
		return 0;
	h = run(SEED, w, RWC_OC_HEAD / 8);
	/* in one pass, each record checked (inside the module, in order,
	 * disjoint; its name in the string table), summed and made the
	 * object in its place (a table that does not check is dropped whole) */
	for (size_t i = 0; i < n; i++) {
		uint64_t *r = &w[RWC_OC_HEAD / 8 + 3 * i], lo = r[0], hi = r[1], name = r[2];

		h = (((h ^ lo) * PRIME ^ hi) * PRIME ^ name) * PRIME;
		if (lo > end - bias || hi > end - bias || bias + lo < prev || hi <= lo || name >= w[3])
			return 0;
		prev = bias + hi;
		o[i] = (struct rwc_gobj){bias + lo, bias + hi, (const char *)(RWC_GOBJ_OFFSET | name)};
	}
	if (w[len / 8 - 1] != finish(h))
		return 0;
	*stroff = w[2], *strsize = w[3];
	*table = o;
	return n;
}
