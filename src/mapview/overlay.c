/* overlay.c: the map view's overlay (see overlay.h).  Pure, signal-safe. */
#include "config.h"

#include "mapview/overlay.h"

int rwc_ovl_place(struct rwc_ovl *ovl, unsigned *novl, uintptr_t lo, uintptr_t hi, int prot)
{
	unsigned k = *novl;

	while (k > 0) {
		struct rwc_ovl *o = &ovl[--k];
		if (o->start == lo && o->end == hi) {
			o->prot = prot;
			return 1;
		}
		if (o->start < hi && lo < o->end)
			break;
	}
	if (*novl >= RWC_OVL_CAP)
		return 0;
	ovl[*novl].start = lo;
	ovl[*novl].end = hi;
	ovl[*novl].prot = prot;
	(*novl)++;
	return 1;
}

int rwc_ovl_verdict(const struct rwc_ovl *ovl, unsigned novl, struct rwc_verdict *v, unsigned *by)
{
	for (unsigned k = novl; k-- > 0;) {
		struct rwc_ovl o = ovl[k];
		struct rwc_region r;

		if (!(o.start < v->hi && v->lo < o.end))
			continue;
		if (o.start > v->lo || v->hi > o.end)
			return -1;
		*by = k;
		if (o.prot < 0) {
			v->problem = RWC_BUF_UNMAPPED;
			return 1;
		}
		r.start = o.start;
		r.end = o.end;
		r.prot = (unsigned)o.prot;
		rwc_verdict_feed(v, &r, NULL);
		rwc_verdict_finish(v);
		return 1;
	}
	return 0;
}
