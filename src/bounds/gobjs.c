/* gobjs.c: a module's data objects as a sorted table (see gobjs.h).
 * Pure: no allocation, no system call; async-signal-safe. */
#include "config.h"

#include "bounds/gobjs.h"

/* Before: lower start, then the larger object. */
static int before(const struct rwc_gobj *a, const struct rwc_gobj *b)
{
	return a->lo < b->lo || (a->lo == b->lo && a->hi > b->hi);
}

static void swap(struct rwc_gobj *a, struct rwc_gobj *b)
{
	struct rwc_gobj t = *a;

	*a = *b, *b = t;
}

static void insertion(struct rwc_gobj *o, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && before(&o[j], &o[j - 1]); j--)
			swap(&o[j], &o[j - 1]);
}

static void sift(struct rwc_gobj *o, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && before(&o[c], &o[c + 1]))
			c++;
		if (!before(&o[i], &o[c]))
			return;
		swap(&o[i], &o[c]);
	}
}

static void heapsort(struct rwc_gobj *o, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(o, i, n);
	for (size_t i = n; i-- > 1;) {
		swap(&o[0], &o[i]);
		sift(o, 0, i);
	}
}

/* Introsort (allocates nothing): quicksort with the median of three as
 * the pivot and Hoare's partition (which stops at keys equal to it: a run
 * of alike keys splits in halves), the smaller side by recursion and the
 * larger by the loop; past DEPTH levels (a file made to be slow)
 * heapsort. */
static void sort(struct rwc_gobj *o, size_t n, int depth)
{
	while (n > 16) {
		size_t mid = n / 2, i = 0, j = n;

		if (depth-- == 0) {
			heapsort(o, n);
			return;
		}
		if (before(&o[mid], &o[0]))
			swap(&o[mid], &o[0]);
		if (before(&o[n - 1], &o[0]))
			swap(&o[n - 1], &o[0]);
		if (before(&o[n - 1], &o[mid]))
			swap(&o[n - 1], &o[mid]);
		swap(&o[0], &o[mid]); /* the median, at 0 */
		for (;;) {
			while (before(&o[++i], &o[0]) && i < n - 1)
				;
			while (before(&o[0], &o[--j]) && j > 0)
				;
			if (i >= j)
				break;
			swap(&o[i], &o[j]);
		}
		swap(&o[0], &o[j]); /* o[0..j) not after the pivot at j, o(j..n) not before */
		if (j < n - 1 - j) {
			sort(o, j, depth);
			o += j + 1, n -= j + 1;
		} else {
			sort(o + j + 1, n - 1 - j, depth);
			n = j;
		}
	}
	insertion(o, n);
}

size_t rwc_gobj_sort_merge_depth(struct rwc_gobj *o, size_t n, int depth)
{
	size_t k = 0;

	sort(o, n, depth);
	for (size_t i = 0; i < n; i++) {
		if (k && o[i].lo < o[k - 1].hi) {
			if (o[i].hi > o[k - 1].hi)
				o[k - 1].hi = o[i].hi;
			continue;
		}
		o[k++] = o[i];
	}
	return k;
}

size_t rwc_gobj_sort_merge(struct rwc_gobj *o, size_t n)
{
	return rwc_gobj_sort_merge_depth(o, n, 2 * (64 - __builtin_clzll((unsigned long long)n | 1)));
}

long rwc_gobj_find(const struct rwc_gobj *obj, size_t n, uintptr_t a, uintptr_t start,
		   uintptr_t end, uintptr_t *gap_lo, uintptr_t *gap_hi)
{
	size_t lo = 0, hi = n; /* the first object starting above A: obj[hi] */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (hi > 0 && a < obj[hi - 1].hi)
		return (long)(hi - 1);
	*gap_lo = hi > 0 ? obj[hi - 1].hi : start;
	*gap_hi = hi < n ? obj[hi].lo : end;
	return -1;
}
