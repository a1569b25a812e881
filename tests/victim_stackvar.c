/* victim_stackvar.c: reads into stack variables, good or bad, for
 * tests/stackvars.py (the stack check by variable, from DWARF).  Same
 * protocol as victim_bounds.c:
 *
 *   victim_stackvar CASE good|bad
 *
 * prints "site FUNCTION LINE" for the call under test, "var NAME ADDR" for
 * the variables around the buffer, and "result RET ERRNO".  Built -O0 -g,
 * -O2 -g, -O2 -g -D_FORTIFY_SOURCE=2 and -O2 without DWARF; the functions
 * that own the variables are noinline (but inl_read, inlined on purpose). */
#define _GNU_SOURCE
#ifdef VICTIM_O0
#pragma GCC optimize("O0") /* the build's CFLAGS (-O2) come after ours */
#endif
#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/auxv.h>

#include "victim.h"

#define VAR(v) printf("var %s %p\n", #v, (void *)&(v))
#define KEEP(p) __asm__ volatile("" : : "r"(p) : "memory") /* in memory, used */

static int bad;
static int file_fd; /* a 10-byte file: every read is short */
static ssize_t ret;

/* Neighbouring locals: 64 bytes read into the 16 of name reach rest. */
static NOINLINE void c_locals(void)
{
	char name[16];
	char rest[240];

	VAR(name), VAR(rest);
	SITE(); ret = read(file_fd, name, bad ? 64 : 16);
	KEEP(name);
	KEEP(rest);
}

/* A struct member read up to the end of the struct (fine) or past it. */
struct rec {
	int len;
	char data[20];
	char tail[12];
};

static NOINLINE void c_member(void)
{
	struct rec s;

	VAR(s);
	SITE(); ret = read(file_fd, s.data, bad ? 64 : sizeof s - offsetof(struct rec, data));
	KEEP(&s);
}

/* A parameter: a struct passed by value (in memory: the caller's
 * outgoing arguments at -O2), an array in it read into. */
struct big {
	char data[40];
	long x;
};

static NOINLINE ssize_t by_value(struct big b)
{
	ssize_t r;

	VAR(b);
	SITE(); r = read(file_fd, b.data, bad ? 64 : sizeof b);
	KEEP(&b);
	return r;
}

static NOINLINE void c_param(void)
{
	struct big b;

	memset(&b, 0, sizeof b);
	ret = by_value(b);
}

/* A parameter passed in memory, read into by a callee (frame #1). */
static NOINLINE ssize_t reader(char *p, size_t n);

static NOINLINE ssize_t by_value_down(struct big b)
{
	ssize_t r;

	VAR(b);
	r = reader(b.data, bad ? 64 : sizeof b);
	KEEP(&b);
	return r;
}

static NOINLINE void c_param_down(void)
{
	struct big b;

	memset(&b, 0, sizeof b);
	ret = by_value_down(b);
}

/* The buffer is the caller's variable (frame #1); the callee reads. */
static NOINLINE ssize_t reader(char *p, size_t n)
{
	ssize_t r;

	SITE(); r = read(file_fd, p, n);
	KEEP(p); /* no tail call: this frame stays */
	return r;
}

static NOINLINE void c_callee(void)
{
	char line[32];
	char other[64];

	VAR(line), VAR(other);
	ret = reader(line, bad ? 80 : sizeof line);
	KEEP(line);
	KEEP(other);
}

/* A variable of a lexical block. */
static NOINLINE void c_block(void)
{
	ret = -2;
	if (file_fd >= 0) {
		char blk[24];

		VAR(blk);
		SITE(); ret = read(file_fd, blk, bad ? 50 : 24);
		KEEP(blk);
	}
}

/* A local of an inlined function. */
static inline __attribute__((always_inline)) void inl_read(void)
{
	char ib[32];

	VAR(ib);
	SITE(); ret = read(file_fd, ib, bad ? 100 : 32);
	KEEP(ib);
}

static NOINLINE void c_inlined(void) { inl_read(); }

/* At -O2 GCC gives a block's array and an array the function declares
 * after the block one slot (their lives do not meet): at the call the
 * block's is the one in scope. */
static NOINLINE void c_shared(void)
{
	ret = -2;
	if (file_fd >= 0) {
		char hdr[16];

		VAR(hdr);
		SITE(); ret = read(file_fd, hdr, bad ? 20 : 16);
		KEEP(hdr);
	}
	char body[64];

	VAR(body);
	KEEP(body);
}

/* The same with an inlined callee's local and its caller's later array. */
static inline __attribute__((always_inline)) void inl_small(void)
{
	char small[16];

	VAR(small);
	SITE(); ret = read(file_fd, small, bad ? 17 : 16);
	KEEP(small);
}

static NOINLINE void c_inlshared(void)
{
	inl_small();
	char grid[48];

	VAR(grid);
	KEEP(grid);
}

/* Two paths whose tails GCC -O2 merges (the arrays share a slot, the
 * tails are the same code): the one call left lies in the block's code,
 * where a read into b, declared before the block, is still judged by b. */
static NOINLINE ssize_t consume(char *p, ssize_t r)
{
	KEEP(p);
	return r;
}

static NOINLINE ssize_t merged_tail(int c, size_t n)
{
	char b[64];

	if (!c)
		return consume(b, read(file_fd, b, n));
	{
		char a[16];

		if (n > sizeof a)
			n = sizeof a;
		return consume(a, read(file_fd, a, n));
	}
}

static NOINLINE void c_merged(void) { ret = merged_tail(file_fd < 0, bad ? 80 : 40); }

/* A goto past a block to an array declared after it: GCC -O2 merges the
 * two reads into the block's code, where the read into b must not be
 * judged by a. */
static NOINLINE ssize_t goto_tail(int c, size_t n)
{
	ssize_t r;

	if (!c)
		goto use_b;
	{
		char a[16];

		if (n > sizeof a)
			n = sizeof a;
		r = read(file_fd, a, n);
		consume(a, r);
		return r;
	}
use_b:;
	char b[64];

	r = read(file_fd, b, n);
	consume(b, r);
	return r;
}

static NOINLINE void c_gototail(void) { ret = goto_tail(file_fd < 0, bad ? 80 : 40); }

/* Arrays of two sibling blocks and one after them: clang gives all three
 * one slot and merges the reads into code of line 0, where only z is in
 * scope: no variable is the buffer's there. */
static NOINLINE ssize_t joined_tail(int c, size_t n)
{
	ssize_t r;

	if (c) {
		char a[16];

		if (n > sizeof a)
			n = sizeof a;
		r = consume(a, read(file_fd, a, n));
	} else {
		char b[64];

		r = consume(b, read(file_fd, b, n));
	}
	char z[8];

	consume(z, r);
	return r;
}

static NOINLINE void c_joined(void) { ret = joined_tail(file_fd < 0, bad ? 80 : 40); }

/* Over-aligned: at -O2 located from the sp (DW_OP_breg7), not the cfa. */
static NOINLINE void c_aligned(void)
{
	char al[32] __attribute__((aligned(64)));

	SITE(); ret = read(file_fd, al, bad ? 48 : 32);
	KEEP(al);
}

/* No variable holds these bytes: judged by the frame. */
static NOINLINE ssize_t with_alloca(size_t n)
{
	char *p = alloca(n);
	ssize_t r;

	SITE(); r = read(file_fd, p, bad ? n + 512 : n);
	KEEP(p);
	return r;
}

static NOINLINE void c_alloca(void) { ret = with_alloca(300); }

static NOINLINE ssize_t with_vla(size_t n)
{
	char v[n];
	ssize_t r;

	SITE(); r = read(file_fd, v, bad ? n + 512 : n);
	KEEP(v);
	return r;
}

static NOINLINE void c_vla(void) { ret = with_vla(300); }

/* The same call site, good many times (the frame cache), then bad. */
static NOINLINE void c_loop(void)
{
	int b = bad;

	bad = 0;
	for (int i = 0; i < 1000; i++)
		c_locals();
	bad = b;
	c_locals();
}

/* The program's file replaced (RWC_OTHER_EXE, a copy without DWARF,
 * renamed over the name it was run by) before its first stack check:
 * whether it has DWARF is asked of the file it runs, not of that name. */
static NOINLINE void c_exe_replaced(void)
{
	const char *other = getenv("RWC_OTHER_EXE"), *self = (const char *)getauxval(AT_EXECFN);

	if (!other || !self || rename(other, self) != 0)
		exit(98);
	c_locals();
}

/* A process's first checks, good reads into a stack variable, then how
 * many of its mappings are wiped on fork (smaps' VmFlags "wf"): the
 * library's own memory starts with its per-process pages, the one such
 * mapping (none while its first checks ask the kernel for single
 * mappings and its frames have no DWARF).  Its file is /dev/zero: no
 * write from a global comes first (the global check maps the memory). */
static NOINLINE void c_firstchecks(void)
{
	char line[512];
	unsigned n = 0;
	FILE *f;

	bad = 0;
	for (int i = 0; i < 3; i++)
		c_locals();
	f = fopen("/proc/self/smaps", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "VmFlags:", 8) == 0 && strstr(line, " wf"))
			n++;
	if (f)
		fclose(f);
	printf("wipe-on-fork mappings %u\n", n);
}

static const struct victim_case cases[] = {
	VCASE(locals), VCASE(exe_replaced), VCASE(member), VCASE(param), VCASE(param_down), VCASE(callee), VCASE(block),
	VCASE(inlined), VCASE(shared), VCASE(inlshared), VCASE(merged), VCASE(gototail), VCASE(joined), VCASE(aligned), VCASE(alloca), VCASE(vla), VCASE(loop), VCASE(firstchecks),
};

int main(int argc, char **argv)
{
	int i = victim_pick(argc, argv, "victim_stackvar", cases, &bad);

	if (i < 0)
		return 2;
	/* (firstchecks: /dev/zero, no write from a global first) */
	file_fd = cases[i].fn == c_firstchecks ? open("/dev/zero", O_RDONLY) :
		  victim_file("victim_stackvar", "0123456789", 10, 0);
	if (file_fd < 0)
		return 99;
	errno = 0;
	cases[i].fn();
	victim_result(ret, errno);
	return 0;
}
