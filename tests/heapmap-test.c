/* heapmap-test.c: the block-start bitmaps (heapmap.c) against a plain
 * reference, on addresses only (no memory behind them): random blocks
 * recorded live and freed across leaf boundaries, then every lookup —
 * the backward search, its 64 MiB reach and floor, the inline quick
 * answers — compared with a brute-force search.  The requested sizes
 * (slack bytes, escaped records across a leaf boundary, widening).  And
 * the trace depot. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bounds/depot.h"
#include "bounds/heapmap.h"
#include "tap.h"

#define GIB ((uintptr_t)1 << 30)
#define BASE (0x7e0000000000ul - GIB / 2) /* straddles a leaf boundary */
#define SPAN (3 * GIB)
#define N 4000

static uintptr_t starts[N];
static int state[N];     /* 0 never, 1 live, 2 freed */
static int was_freed[N]; /* freed at least once: its freed bit stays */

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The reference: the highest start of STATE at or below A, not below
 * A - RWC_HM_SEARCH nor FLOOR; freed ones count from their first free on
 * (the bit is never cleared), live ones while live. */
static uintptr_t ref_prev(uintptr_t a, int freed, uintptr_t floor)
{
	uintptr_t best = 0, low = a > RWC_HM_SEARCH ? a - RWC_HM_SEARCH : 0;

	if (floor > low)
		low = floor;
	for (int i = 0; i < N; i++) {
		int in = freed ? was_freed[i] : state[i] == 1;
		if (in && starts[i] <= a && starts[i] >= low && starts[i] > best)
			best = starts[i];
	}
	return best;
}

static uintptr_t any_addr(void)
{
	/* clustered: most near others (same word, same summary word), some far */
	switch (next() % 3) {
	case 0:
		return BASE + (next() % SPAN & ~(uintptr_t)15);
	case 1:
		return (starts[next() % N] + (next() % 2048)) & ~(uintptr_t)15;
	default:
		return (starts[next() % N] + (next() % (96u << 20))) & ~(uintptr_t)15;
	}
}

int main(void)
{
	int bad_prev = 0, bad_freed = 0, bad_nothing = 0, bad_near = 0, bad_span = 0, spans = 0, queries = 0;
	uintptr_t pcs[20], back[RWC_DEPOT_FRAMES];
	uint32_t id1, id2, id3;

	/* Blocks: clusters of nearby starts, and lone ones far apart. */
	for (int i = 0; i < N; i++) {
		uintptr_t a = (i % 8 && i) ? starts[i - 1] + 16 * (1 + next() % 200)
					    : BASE + (next() % SPAN);
		starts[i] = a & ~(uintptr_t)15;
		for (int j = 0; j < i; j++) /* unique starts: one state each */
			if (starts[j] == starts[i]) {
				starts[i] += 16;
				j = -1;
			}
	}
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N; i++) {
			uint64_t r = next() % 4;
			if (r == 0 && state[i] != 1) {
				rwc_hm_live(starts[i], 0);
				state[i] = 1;
			} else if (r == 1 && state[i] == 1) {
				rwc_hm_freed(starts[i], 1, 0);
				state[i] = 2;
				was_freed[i] = 1;
			}
		}
		for (int q = 0; q < 3000; q++, queries++) {
			uintptr_t a = any_addr(), live = rwc_hm_prev(a, 0, 0), ref = ref_prev(a, 0, 0);
			uintptr_t fl = rwc_hm_prev(a, 1, live), fref = ref_prev(a, 1, live), near;

			bad_prev += live != ref;
			bad_freed += fl != fref;
			bad_nothing += rwc_hm_nothing_below(a) && (ref || fref);
			near = rwc_hm_near(a);
			bad_near += near && (near != ref || (near ^ a) >> 10);
			if (fl != fref && bad_freed < 4)
				printf("# freed prev(%#lx, floor %#lx): %#lx, reference %#lx\n", (unsigned long)a,
				       (unsigned long)live, (unsigned long)fl, (unsigned long)fref);
			if (live != ref && bad_prev < 4)
				printf("# prev(%#lx): %#lx, reference %#lx\n", (unsigned long)a,
				       (unsigned long)live, (unsigned long)ref);
		}
	}
	ok(bad_prev == 0, "%d lookups of the nearest live start below an address agree with the reference (%d differ)",
	   queries, bad_prev);
	ok(bad_freed == 0, "... and of the nearest freed start above the live one (%d differ)", bad_freed);
	ok(bad_nothing == 0, "the inline 'nothing below' never hides a block (%d times)", bad_nothing);
	ok(bad_near == 0, "the inline quick lookup agrees where it answers (%d differ)", bad_near);
	/* Spans anywhere from 2 GiB below the blocks to 2 GiB above them, half
	 * up to 1 MiB long, half up to 2 GiB (across leaf boundaries): where
	 * the span says nothing is below, every address of it says so too
	 * (short ones at each 4 KiB, long ones at 512 random places). */
	for (int q = 0; q < 20000; q++) {
		uintptr_t a = (BASE - 2 * GIB + next() % (SPAN + 4 * GIB)) & ~(uintptr_t)15;
		uintptr_t len = q % 2 ? next() % (1u << 20) : next() % (2 * GIB), last = a + len;

		if (!rwc_hm_nothing_below_span(a, last))
			continue;
		spans++;
		if (len < (1u << 20))
			for (uintptr_t x = a; x < last; x += 4096)
				bad_span += !rwc_hm_nothing_below(x);
		else
			for (int k = 0; k < 512; k++)
				bad_span += !rwc_hm_nothing_below(a + next() % len);
		bad_span += !rwc_hm_nothing_below(last);
	}
	{ /* a span over three leaves: none, one low block, one high block */
		uintptr_t A = 0x500000000000ul, M = (uintptr_t)1 << 20;

		rwc_hm_live(A + GIB + 100 * M, 0);
		rwc_hm_live(A + 2 * GIB + 900 * M, 0);
		ok(rwc_hm_nothing_below(A + 500 * M) && rwc_hm_nothing_below(A + 2 * GIB + 500 * M) &&
		   !rwc_hm_nothing_below(A + GIB + 200 * M) &&
		   !rwc_hm_nothing_below_span(A + 500 * M, A + 2 * GIB + 500 * M),
		   "a span whose ends have nothing below but whose middle leaf has a block: not cleared");
	}
	ok(bad_span == 0 && spans > 100, "'nothing below' of a span holds for every address in it (%d spans, %d not)",
	   spans, bad_span);
	ok(rwc_hm_prev(BASE - GIB, 0, 0) == 0 && rwc_hm_nothing_below(BASE - 2 * GIB),
	   "below every block: nothing");
	ok(rwc_hm_prev(0x900000000000ul, 0, 0) == 0 && rwc_hm_nothing_below(0x900000000000ul),
	   "above 128 TiB: nothing, and no crash");
	rwc_hm_live(BASE + 8, 0);
	ok(rwc_hm_prev(BASE + 8, 0, 0) != BASE + 8, "a misaligned start is ignored");

	{ /* requested sizes: in the slack byte, escaped, widened, unknown */
		uintptr_t a = 0x600000000000ul, edge = 0x600000000000ul + GIB - 64;
		unsigned s = 99;

		rwc_hm_live_req(a, 0, 100, 104);
		rwc_hm_live_req(a + 256, 0, 1000, 1000 + 254);
		rwc_hm_live_req(a + 4096, 0, 100, 1 << 20);
		rwc_hm_live_req(edge, 0, 12345, 1 << 20); /* its record runs into the next leaf */
		ok(rwc_hm_requested(a, 104) == 100 && rwc_hm_near_slack(a + 50, &s) == a && s == 4 &&
		   rwc_hm_requested_quick(s, 104) == 100, "a request with 4 bytes of slack: in its byte");
		ok(rwc_hm_requested(a + 256, 1254) == 1000, "254 bytes of slack: still in its byte");
		ok(rwc_hm_requested(a + 4096, 1 << 20) == 100 && rwc_hm_near_slack(a + 4096, &s) == a + 4096 &&
		   rwc_hm_requested_quick(s, 1 << 20) == SIZE_MAX, "1 MiB of slack: escaped, and the quick answer defers");
		ok(rwc_hm_requested(edge, 1 << 20) == 12345, "an escaped record across a leaf boundary");
		ok(rwc_hm_requested(a + 4096, 50) == 50, "a record above the usable size is not believed");
		rwc_hm_widen(a);
		rwc_hm_widen(a + 4096);
		ok(rwc_hm_requested(a, 104) == 104 && rwc_hm_requested(a + 4096, 1 << 20) == 1 << 20,
		   "widened (malloc_usable_size): the usable size");
		rwc_hm_live(a + 8192, 0); /* no request known */
		ok(rwc_hm_requested(a + 8192, 48) == 48, "a block with no request recorded: its usable size");
		rwc_hm_live_req(a + 256, 0, 1000, 1254);
		rwc_hm_freed(a + 256, 1, 0);
		rwc_hm_widen(a + 256);
		ok(rwc_hm_requested(a + 256, 1254) == 1000, "a freed block keeps its request; widening it does nothing");
		ok(rwc_hm_requested(0x700000000000ul, 64) == 64, "no leaf: the usable size");
	}
	{ /* records of 64 grains: a block's slack byte and site word on one
	   * page; escaped sizes that run into the next record; neighbours */
		uintptr_t r = 0x600000000000ul + 1024 * 1000; /* a record's start */
		size_t g = (r & (GIB - 1)) >> 4;
		const struct rwc_hm_leaf *l = rwc_hm_top[r >> RWC_HM_LEAF_SHIFT];
		int same = 1, kept = 1;

		rwc_hm_origins = 1;
		for (unsigned k = 0; k < 64; k++) /* one record, grain by grain */
			same &= ((uintptr_t)&RWC_HM_SLACK(l, g + k) >> 12) == ((uintptr_t)&RWC_HM_SITE(l, g + k) >> 12) ||
				((uintptr_t)l->recs[(g + k) / 64].slack >> 12) != ((uintptr_t)(l->recs[(g + k) / 64].sites + 31) >> 12);
		ok(l && same, "a grain's slack byte and site word are on one page (unless its record straddles two)");
		for (unsigned k = 0; k < 64; k += 2) /* a block every 32 bytes: slack k % 15, site 0x100 + k */
			rwc_hm_live_req(r + 16 * k, 0x100 + k, 48 - k % 15, 48);
		for (unsigned k = 0; k < 64; k += 2)
			kept &= rwc_hm_requested(r + 16 * k, 48) == 48 - k % 15 && rwc_hm_sites(r + 16 * k) == 0x100 + k;
		ok(kept, "32 blocks in one record: each keeps its slack and its site");
		for (unsigned k = 50; k < 64; k++) { /* escaped bytes up to 7 grains into the next record */
			uintptr_t b = r + 4096 + 16 * k;

			rwc_hm_live_req(b, 0x77, 1000 + k, 1 << 20);
			kept &= rwc_hm_requested(b, 1 << 20) == 1000 + k && rwc_hm_escaped(b) == 1000 + k &&
				rwc_hm_sites(b) == 0x77;
			rwc_hm_freed(b, 0, 0);
		}
		ok(kept, "escaped requests that run into the next record read back whole");
	}

	rwc_hm_origins = 1;
	rwc_hm_live(BASE + 4096, 0xabc);
	ok(rwc_hm_sites(BASE + 4096) == 0xabc, "the allocation site of a block is kept");
	ok(rwc_hm_hold(BASE + 4096, 0x123) && rwc_hm_sites(BASE + 4096) == 0x1230abc &&
	   rwc_hm_was_freed(BASE + 4096) && !rwc_hm_live_at(BASE + 4096) && !rwc_hm_hold(BASE + 4096, 0x5),
	   "held once: its free site kept beside the allocation's, freed, no longer live");
	/* glibc's smallest chunks, back to back: 32 bytes apart (a site word
	 * per 32 bytes of address space) */
	for (int i = 0; i < 8; i++)
		rwc_hm_live_req(BASE + 8192 + 32 * (uintptr_t)i, 0x100 + (uint32_t)i, 24, 24);
	{
		int each = 1;

		for (int i = 0; i < 8; i++)
			each &= rwc_hm_sites(BASE + 8192 + 32 * (uintptr_t)i) == 0x100u + (uint32_t)i;
		ok(each && rwc_hm_hold(BASE + 8192 + 32, 0x77) && rwc_hm_sites(BASE + 8192 + 32) == 0x770101 &&
		   rwc_hm_sites(BASE + 8192) == 0x100 && rwc_hm_sites(BASE + 8192 + 64) == 0x102,
		   "blocks 32 bytes apart: each its own sites, a free changes only its own");
	}
	{ /* the common record (rwc_hm_live_req without a call) beside the
	   * others, and a grain freed again (its freed bit already set) */
		uintptr_t b = 0x610000000000ul;
		unsigned s = 0;

		rwc_hm_live_req(b + 4096, 0x11, 40, 40);   /* a new leaf, its site words */
		rwc_hm_live_req(b + 2048, 0x22, 20, 24);   /* below the lowest start */
		rwc_hm_live_req(b + 8192, 0x33, 100, 104); /* the common one */
		ok(!rwc_hm_nothing_below(b + 2048) && rwc_hm_requested(b + 2048, 24) == 20 &&
		   rwc_hm_near_slack(b + 8192 + 50, &s) == b + 8192 && s == 4 && rwc_hm_sites(b + 8192) == 0x33 &&
		   rwc_hm_sites(b + 4096) == 0x11 && rwc_hm_sites(b + 2048) == 0x22,
		   "recorded live: below the lowest start, in a new leaf, the common case: starts, slack, sites");
		ok(rwc_hm_hold(b + 8192, 0x44) && rwc_hm_sites(b + 8192) == 0x440033, "held: both sites");
		rwc_hm_live_req(b + 8192, 0x55, 10, 24); /* handed out again */
		ok(rwc_hm_live_at(b + 8192) && !rwc_hm_was_freed(b + 8192) && rwc_hm_sites(b + 8192) == 0x55 &&
		   rwc_hm_requested(b + 8192, 24) == 10, "handed out again: live, the new site and request");
		ok(rwc_hm_hold(b + 8192, 0x66) && rwc_hm_sites(b + 8192) == 0x660055 && rwc_hm_was_freed(b + 8192) &&
		   rwc_hm_prev(b + 8192 + 8, 1, 0) == b + 8192 && rwc_hm_prev(b + 8192 + 8, 0, 0) == b + 4096,
		   "freed again: the new free site, freed, found by the freed search, not the live one");
		rwc_hm_freed(b + 4096, 1, 0x77);
		ok(rwc_hm_sites(b + 4096) == 0x770011 && rwc_hm_was_freed(b + 4096), "freed without the quarantine: its sites");
	}
	rwc_hm_origins = 0;

	for (int i = 0; i < 20; i++)
		pcs[i] = 0x400000 + 16 * (uintptr_t)i;
	id1 = rwc_depot_put(pcs, 5);
	id2 = rwc_depot_put(pcs, 5);
	id3 = rwc_depot_put(pcs + 1, 5);
	ok(id1 && id1 == id2 && id3 && id3 != id1, "depot: the same trace once, another apart (%u %u %u)",
	   id1, id2, id3);
	ok(rwc_depot_get(id1, back) == 5 && back[0] == pcs[0] && back[4] == pcs[4], "depot: a trace comes back whole");
	ok(rwc_depot_get(rwc_depot_put(pcs, 20), back) == RWC_DEPOT_FRAMES, "depot: long traces are cut to %d frames",
	   RWC_DEPOT_FRAMES);
	ok(rwc_depot_get(0, back) == 0 && rwc_depot_get(0xffffffffu, back) == 0, "depot: unknown ids give nothing");
	ok(rwc_depot_put(pcs, 0) == 0, "depot: an empty trace is not kept");
	return done_testing();
}
