/* objfmt.c: the object cache's file format (see objfmt.h).  Pure. */
#include "config.h"

#include "bounds/objfmt.h"

#define MAGIC 0x31534a424f435752ull /* "RWCOBJS1" */

/* A checksum of W[0..n) (64-bit words): each step a bijection of the
 * running value, so a change of any one word changes the result. */
static uint64_t sum(const uint64_t *w, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

void rwc_oc_encode(const struct rwc_gobj *o, size_t n, uintptr_t bias, uint64_t stroff, uint64_t strsize,
		   unsigned char *buf)
{
	uint64_t *w = (uint64_t *)(void *)buf;
	size_t k = 4;

	w[0] = MAGIC, w[1] = n, w[2] = stroff, w[3] = strsize;
	for (size_t i = 0; i < n; i++) {
		w[k++] = o[i].lo - bias;
		w[k++] = o[i].hi - bias;
		w[k++] = (uintptr_t)o[i].name & ~RWC_GOBJ_OFFSET;
	}
	w[k] = sum(w, k);
}

size_t rwc_oc_decode(unsigned char *buf, size_t len, uintptr_t bias, uintptr_t start, uintptr_t end,
		     struct rwc_gobj **table, uint64_t *stroff, uint64_t *strsize)
{
	uint64_t *w = (uint64_t *)(void *)buf, h = 0xcbf29ce484222325ull;
	struct rwc_gobj *o = (struct rwc_gobj *)(void *)(buf + RWC_OC_HEAD);
	size_t n;
	uintptr_t prev = start;

	_Static_assert(sizeof(struct rwc_gobj) == RWC_OC_REC, "a record is an object, in place");
	if (len < rwc_oc_size(0) || w[0] != MAGIC || (n = (size_t)w[1]) > RWC_OC_MAXN || len != rwc_oc_size(n))
		return 0;
	for (int k = 0; k < 4; k++)
		h = (h ^ w[k]) * 0x100000001b3ull;
	/* in one pass, each record checked (inside the module, in order,
	 * disjoint; its name in the string table), summed and made the
	 * object in its place (a table that does not check is dropped whole) */
	for (size_t i = 0; i < n; i++) {
		uint64_t lo = w[4 + 3 * i], hi = w[5 + 3 * i], name = w[6 + 3 * i];

		h = (((h ^ lo) * 0x100000001b3ull ^ hi) * 0x100000001b3ull ^ name) * 0x100000001b3ull;
		if (lo > end - bias || hi > end - bias || bias + lo < prev || hi <= lo || name >= w[3])
			return 0;
		prev = bias + hi;
		o[i] = (struct rwc_gobj){bias + lo, bias + hi, (const char *)(RWC_GOBJ_OFFSET | name)};
	}
	if (w[len / 8 - 1] != (h ^ (h >> 29)))
		return 0;
	*stroff = w[2], *strsize = w[3];
	*table = o;
	return n;
}

