/* ownheap-test: the library's own heap (src/ownheap.c) on its own: sizes
 * and alignments, usable sizes, no two live blocks overlapping, reuse
 * after free, large blocks unmapped, which pointers are its own, and four
 * threads allocating and freeing at once (each block filled with its
 * thread's mark and checked before it is freed).  TAP. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mapview/ownheap.h"
#include "tap.h"

#define LIVE 400

static uint64_t seed = 88172645463325252ull;
static uint64_t next(void)
{
	seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
	return seed;
}

struct blk {
	unsigned char *p;
	size_t n;
};

static int overlaps(const struct blk *b, int k)
{
	for (int i = 0; i < k; i++)
		for (int j = i + 1; j < k; j++)
			if (b[i].p && b[j].p && b[i].p < b[j].p + b[j].n && b[j].p < b[i].p + b[i].n)
				return 1;
	return 0;
}

static void *worker(void *arg)
{
	unsigned char mark = (unsigned char)(uintptr_t)arg;
	struct blk mine[32] = {{0}};
	uint64_t s = 0x9e3779b97f4a7c15ull * (mark + 1);
	long bad = 0;

	for (int round = 0; round < 20000; round++) {
		struct blk *b = &mine[(s >> 33) % 32];

		s = s * 6364136223846793005ull + 1442695040888963407ull;
		if (b->p) {
			for (size_t i = 0; i < b->n; i++)
				bad += b->p[i] != mark;
			rwc_ownheap_free(b->p);
			b->p = NULL;
		} else {
			b->n = 1 + (s >> 40) % 3000;
			if ((b->p = rwc_ownheap_alloc(b->n, 16)))
				memset(b->p, mark, b->n);
		}
	}
	for (int i = 0; i < 32; i++)
		if (mine[i].p)
			rwc_ownheap_free(mine[i].p);
	return (void *)bad;
}

int main(void)
{
	static struct blk live[LIVE];
	int misaligned = 0, short_usable = 0, stack_var = 0, failed = 0;
	void *m = malloc(64), *big, *again;
	pthread_t t[4];
	long bad = 0;

	for (int i = 0; i < LIVE; i++) {
		size_t n = next() % 5 == 0 ? next() % 300000 : next() % 2000;
		size_t al = (size_t)16 << (next() % 9);

		live[i].p = rwc_ownheap_alloc(n, al);
		live[i].n = n;
		if (!live[i].p) {
			failed++;
			continue;
		}
		misaligned += ((uintptr_t)live[i].p & (al - 1)) != 0;
		short_usable += rwc_ownheap_usable(live[i].p) < n;
		memset(live[i].p, i & 0xff, n);
	}
	ok(!failed, "%d sizes up to 300 kB, alignments 16..4096: every block served", LIVE);
	ok(!misaligned, "every block aligned as asked");
	ok(!short_usable, "every block's usable size at least what was asked");
	ok(!overlaps(live, LIVE), "no two live blocks overlap");
	ok(rwc_ownheap_has(live[0].p) && rwc_ownheap_has(live[LIVE - 1].p), "the blocks are the heap's own");
	ok(!rwc_ownheap_has(m) && !rwc_ownheap_has(&stack_var) && !rwc_ownheap_has(NULL),
	   "malloc's blocks, the stack and NULL are not");
	for (int i = 0; i < LIVE; i++)
		if (live[i].p)
			rwc_ownheap_free(live[i].p);
	big = rwc_ownheap_alloc(1 << 20, 16);
	ok(big && rwc_ownheap_has(big), "a 1 MiB block: a mapping of its own");
	rwc_ownheap_free(big);
	ok(!rwc_ownheap_has(big), "... unmapped when freed");
	again = rwc_ownheap_alloc(100, 16);
	rwc_ownheap_free(again);
	ok(rwc_ownheap_alloc(100, 16) == again, "a freed block of a size is the next one served");
	ok(!rwc_ownheap_alloc(10, 48), "an alignment that is not a power of two: none");
	for (uintptr_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	ok(bad == 0, "4 threads x 20,000 allocations and frees: every block kept its owner's bytes (%ld wrong)", bad);
	free(m);
	return done_testing();
}
