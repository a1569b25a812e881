/* quarantine-test.c: the ring of freed blocks (bounds/quarantine.c) on
 * fake blocks (a size word below each, as glibc's chunk header): blocks
 * come back oldest first, each exactly once; what it holds stays within
 * its limit and, once full, just below it (a take gives back no more
 * large blocks than the limit needs); the age of a held block; the byte
 * count. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/quarantine.h"
#include "tap.h"

#define NB 20000

/* Block k: chunk size SIZES[k], its size word below it. */
static size_t *mem[NB];
static size_t sizes[NB];

static void *block(int k, size_t chunk)
{
	mem[k] = calloc(2 + 2, sizeof(size_t));
	mem[k][1] = chunk | 1; /* prev in use, as glibc's */
	sizes[k] = chunk;
	return &mem[k][2];
}

static int index_of(void *p)
{
	for (int k = 0; k < NB; k++)
		if (mem[k] && (void *)&mem[k][2] == p)
			return k;
	return -1;
}

static long held;       /* bytes put and not given back */
static long low = -1;   /* the least held once full */
static long high;       /* the most held after a free */
static int next_out;    /* the block expected back next (oldest first) */
static int order_ok = 1, once_ok = 1, large_ok = 1;
static char out_seen[NB];

static void got(void *p)
{
	int k = index_of(p);

	if (k < 0 || out_seen[k]) {
		once_ok = 0;
		return;
	}
	out_seen[k] = 1;
	if (k != next_out)
		order_ok = 0;
	next_out = k + 1;
	held -= (long)sizes[k];
}

/* One free of block K through the quarantine, as freeq.c does it. */
static void free_one(int k, size_t chunk)
{
	void *p = block(k, chunk), *o;

	held += (long)chunk;
	if ((o = rwc_q_put(p, chunk)))
		got(o);
	while ((o = rwc_q_take()))
		got(o);
	if (held > high)
		high = held;
}

static void reset(void)
{
	for (int k = 0; k < NB; k++)
		free(mem[k]), mem[k] = NULL;
	memset(out_seen, 0, sizeof out_seen);
	held = high = 0;
	low = -1;
	next_out = 0;
}

int main(void)
{
	const long lim = 64 << 10;
	int k;

	rwc_q_limit = (size_t)lim;
	rwc_q_prepare();

	/* small blocks: 80-byte chunks, far more than the limit holds */
	for (k = 0; k < 4000; k++) {
		free_one(k, 80);
		if (k > 2000 && (low < 0 || held < low))
			low = held;
	}
	ok(order_ok && once_ok, "small blocks come back oldest first, each once (next %d)", next_out);
	ok(high <= lim + 80, "what it holds stays within the limit (%ld of %ld)", high, lim);
	ok(low >= lim - 80, "and once full, just below it (at least %ld)", low);
	ok(next_out > 3000 && next_out < 3300, "the last %d blocks are still held", 4000 - next_out);
	ok(rwc_q_age((uintptr_t)&mem[3999][2]) == 1 && rwc_q_age((uintptr_t)&mem[3990][2]) == 10,
	   "the latest block's age is 1, the tenth latest's 10");
	ok(rwc_q_age((uintptr_t)&mem[0][2]) == 0, "a block given back has no age");

	/* large blocks: a quarter of the limit each; over it, only the oldest
	 * goes, so four stay held (a take gives back no more than it must) */
	int first = next_out;
	held = 0;
	for (k = 0; k < 4000; k++) /* what is still held of the small ones */
		if (!out_seen[k])
			held += 80;
	for (k = 4000; k < 4040; k++) {
		free_one(k, (size_t)lim / 4);
		if (k >= 4010) {
			int in = 0;
			for (int j = 4000; j <= k; j++)
				in += !out_seen[j];
			if (in != 4)
				large_ok = 0;
		}
	}
	ok(large_ok, "large blocks: four of a quarter of the limit stay held after each free");
	ok(order_ok && once_ok && next_out == 4036,
	   "large blocks: given back oldest first, each once (from %d, next %d)", first, next_out);
	ok(high <= lim + lim / 4, "held at most the limit and one block (%ld)", high);

	ok(rwc_q_ctr.held == held, "the byte count is what is held (%ld, held %ld)", rwc_q_ctr.held, held);
	reset();
	return done_testing();
}
