/* unit.c: unit tests of the pure parts: range verdicts, count/offset/iovec
 * checks, the maps parser and scanner, the knob parsers, the formatter. */
#include "config.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <stdlib.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/checks.h"
#include "base/fmt.h"
#include "base/knobs.h"
#include "mapview/maps_parse.h"
#include "mapview/pagemap.h"
#include "report/suppress.h"
#include "frames/cfi.h"
#include "frames/demangle.h"
#include "frames/symbolize.h"
#include "base/symscope.h"
#include "bounds/gobjs.h"
#include "bounds/sites.h"
#include "frames/sitefmt.h"
#include "bounds/objfmt.h"
#include "mapview/segrule.h"
#include "tap.h"

static const struct rwc_region R[] = {
	{0x1000, 0x2000, RWC_PROT_R | RWC_PROT_W},
	{0x2000, 0x3000, RWC_PROT_R},
	{0x5000, 0x6000, RWC_PROT_R | RWC_PROT_W},
	{0x6000, 0x7000, 0},
};
#define NR (sizeof R / sizeof R[0])

static struct rwc_verdict verdict(uintptr_t lo, size_t len, unsigned need)
{
	struct rwc_verdict v;

	rwc_verdict_init(&v, lo, len, need);
	rwc_verdict_array(&v, R, NR);
	return v;
}

static void test_verdicts(void)
{
	struct rwc_verdict v;

	v = verdict(0x1800, 0x100, RWC_NEED_WRITE);
	ok(v.problem == RWC_OK, "inside one rw mapping: ok");
	v = verdict(0x1000, 0x2000, RWC_NEED_READ);
	ok(v.problem == RWC_OK, "read need across two adjacent readable mappings: ok");
	v = verdict(0x1f00, 0x200, RWC_NEED_READ);
	ok(v.problem == RWC_OK && v.run_lo == 0x1000 && v.prev.end == 0x3000 &&
	   v.run_prot == RWC_PROT_R, "good run across two mappings: their span and common perms");
	v = verdict(0x1f00, 0x200, RWC_NEED_WRITE);
	ok(v.problem == RWC_BUF_NOT_WRITABLE && v.bad_lo == 0x2000 && v.bad_hi == 0x2100,
	   "write need running into r-- mapping: bytes 0x100..0x1ff not writable");
	ok(v.at.valid && v.at.start == 0x2000 && v.at.end == 0x3000, "describes the r-- mapping");
	v = verdict(0x2f00, 0x300, RWC_NEED_READ);
	ok(v.problem == RWC_BUF_UNMAPPED && v.bad_lo == 0x3000 && v.bad_hi == 0x3200,
	   "tail in a gap: unmapped from the mapping's end to the range's end");
	ok(v.prev.valid && v.prev.end == 0x3000 && v.next.valid && v.next.start == 0x5000,
	   "gap described by the mappings below and above");
	v = verdict(0x3100, 0x3000, RWC_NEED_WRITE);
	ok(v.problem == RWC_BUF_UNMAPPED && v.bad_lo == 0x3100 && v.bad_hi == 0x5000,
	   "bad run stops where the problem changes");
	v = verdict(0x5f00, 0x200, RWC_NEED_READ);
	ok(v.problem == RWC_BUF_NOT_READABLE && v.bad_lo == 0x6000 && v.bad_hi == 0x6100,
	   "---p mapping is not readable");
	v = verdict(0x6800, 0x1000, RWC_NEED_READ);
	ok(v.problem == RWC_BUF_NOT_READABLE && v.bad_hi == 0x7000, "not-readable run ends at the gap");
	v = verdict(0x100, 0x10, RWC_NEED_READ);
	ok(v.problem == RWC_BUF_UNMAPPED && !v.prev.valid && v.next.valid && v.next.start == 0x1000,
	   "below every mapping: gap with only a mapping above");
	v = verdict(0x8000, 0x10, RWC_NEED_READ);
	ok(v.problem == RWC_BUF_UNMAPPED && v.prev.valid && !v.next.valid,
	   "above every mapping: gap with only a mapping below");
	v = verdict(0, 0, RWC_NEED_WRITE);
	ok(v.problem == RWC_OK, "count 0 checks nothing (NULL, 0)");
	v = verdict(UINTPTR_MAX - 10, 100, RWC_NEED_WRITE);
	ok(v.problem == RWC_BUF_UNMAPPED && v.hi == UINTPTR_MAX, "range wrapping the address space");
	rwc_verdict_init(&v, 0x1800, 0x100, RWC_NEED_WRITE);
	rwc_verdict_array(&v, R, 0);
	ok(v.problem == RWC_BUF_UNMAPPED, "empty map: everything unmapped");
}

static void test_scalars(void)
{
	struct iovec iov[3] = {{NULL, 10}, {NULL, (size_t)SSIZE_MAX - 10}, {NULL, 1}};
	size_t total;

	ok(rwc_check_count(0) == RWC_OK && rwc_check_count(SSIZE_MAX) == RWC_OK, "count up to SSIZE_MAX ok");
	ok(rwc_check_count((size_t)SSIZE_MAX + 1) == RWC_COUNT_TOO_LARGE, "count past SSIZE_MAX");
	ok(rwc_check_offset(0, 100, 0) == RWC_OK, "offset 0 ok");
	ok(rwc_check_offset(-1, 1, 0) == RWC_OFFSET_NEGATIVE, "offset -1 negative");
	ok(rwc_check_offset(-1, 1, 1) == RWC_OK, "offset -1 ok where it means current position");
	ok(rwc_check_offset(-2, 1, 1) == RWC_OFFSET_NEGATIVE, "offset -2 negative even for preadv2");
	ok(rwc_check_offset(INT64_MAX - 10, 10, 0) == RWC_OK, "offset+count == INT64_MAX ok");
	ok(rwc_check_offset(INT64_MAX - 10, 11, 0) == RWC_OFFSET_OVERFLOW, "offset+count past INT64_MAX");
	ok(rwc_check_offset(INT64_MAX, SIZE_MAX, 0) == RWC_OFFSET_OVERFLOW, "no unsigned wrap in the sum");
	ok(rwc_check_iovcnt(-1) == RWC_IOVCNT_INVALID && rwc_check_iovcnt(IOV_MAX + 1) == RWC_IOVCNT_INVALID,
	   "iovcnt outside 0..IOV_MAX");
	ok(rwc_check_iovcnt(0) == RWC_OK && rwc_check_iovcnt(IOV_MAX) == RWC_OK, "iovcnt 0 and IOV_MAX ok");
	ok(rwc_check_iov_total(iov, 2, &total) == RWC_OK && total == (size_t)SSIZE_MAX,
	   "segments adding up to SSIZE_MAX ok");
	ok(rwc_check_iov_total(iov, 3, &total) == RWC_IOV_LEN_OVERFLOW, "segments past SSIZE_MAX");
	ok(strcmp(rwc_problem_name(RWC_IOV_ARRAY_BAD), "iov-array-bad") == 0 &&
	   strcmp(rwc_problem_name(RWC_STACK_OVERFLOW), "stack-overflow") == 0, "problem names");
}

static void test_parse_line(void)
{
	struct rwc_map_entry e;
	const char *l1 = "7f1c2a000000-7f1c2a021000 rw-p 00000000 00:00 0                          [heap]";
	const char *l2 = "55d0c0a00000-55d0c0a02000 r-xs 0001a000 fd:01 1234567   /tmp/a b/c (deleted)";
	const char *l3 = "00400000-00401000 ---p 00000000 00:00 0";
	const char *l4 = "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]";

	ok(rwc_maps_parse_line(l1, strlen(l1), &e) == 0 && e.start == 0x7f1c2a000000 &&
	   e.end == 0x7f1c2a021000 && e.prot == (RWC_PROT_R | RWC_PROT_W) &&
	   e.path_len == 6 && memcmp(e.path, "[heap]", 6) == 0, "anonymous [heap] line");
	ok(rwc_maps_parse_line(l2, strlen(l2), &e) == 0 && e.offset == 0x1a000 &&
	   e.dev_major == 0xfd && e.dev_minor == 1 && e.inode == 1234567 &&
	   e.prot == (RWC_PROT_R | RWC_PROT_X | RWC_PROT_SHARED) &&
	   e.path_len == strlen("/tmp/a b/c (deleted)"), "path with spaces and (deleted)");
	ok(rwc_maps_parse_line(l3, strlen(l3), &e) == 0 && e.prot == 0 && e.path_len == 0, "no path");
	ok(rwc_maps_parse_line(l4, strlen(l4), &e) == 0 && e.end == 0xffffffffff601000, "top of the address space");
	ok(rwc_maps_parse_line("", 0, &e) < 0, "empty line rejected");
	ok(rwc_maps_parse_line("1000-2000 rw-p", 14, &e) < 0, "truncated line rejected");
	ok(rwc_maps_parse_line("1000-2000 rwzp 0 00:00 0", 24, &e) < 0, "bad perms rejected");
	ok(rwc_maps_parse_line("2000-1000 rw-p 0 00:00 0", 24, &e) < 0, "end below start rejected");
	ok(rwc_maps_parse_line("11112222333344445-2 rw-p 0 00:00 0", 34, &e) < 0, "17 hex digits rejected");
	ok(rwc_maps_parse_line("1000-2000 rw-p 0 00:00 99999999999999999999999", 46, &e) < 0,
	   "inode overflow rejected");
}

struct scan_count {
	unsigned n;
	uintptr_t last_end;
	size_t longest_path;
};

static int count_cb(const struct rwc_map_entry *e, void *arg)
{
	struct scan_count *c = arg;

	c->n++;
	c->last_end = e->end;
	if (e->path_len > c->longest_path)
		c->longest_path = e->path_len;
	return 0;
}

static void test_scan(void)
{
	int p[2];
	char big[3000], buf[256];
	struct scan_count c = {0, 0, 0};
	unsigned bad = 0;
	int rc;

	memset(big, 'x', sizeof big);
	ok(pipe(p) == 0, "pipe");
	dprintf(p[1], "1000-2000 rw-p 00000000 00:00 0 /a\n");
	dprintf(p[1], "garbage line\n");
	dprintf(p[1], "2000-3000 r--p 00000000 00:00 0 /%.*s\n", (int)sizeof big, big);
	dprintf(p[1], "3000-4000 r--p 00000000 00:00 0 /b\n");
	dprintf(p[1], "4000-5000 r--p 00000000 00:00 0 /no-newline-at-end");
	close(p[1]);
	rc = rwc_maps_scan(p[0], read, buf, sizeof buf, count_cb, &c, &bad);
	close(p[0]);
	ok(rc == 0, "scan reaches end of file");
	ok(c.n == 4 && bad == 1, "4 entries, 1 malformed line skipped (got %u, %u)", c.n, bad);
	ok(c.last_end == 0x5000, "last line without newline parsed");
	ok(c.longest_path < sizeof buf, "over-long line passed on with its path cut");
}

static const char *fake_env[][2] = {
	{"RWCHECK_LOG", "/tmp/x%q"},  {"RWCHECK_FORMAT", "json"}, {"RWCHECK_ACTION", "explode"},
	{"RWCHECK_BACKTRACE", "65"}, {"RWCHECK_SUPPRESS", ""},   {NULL, NULL},
};
static int warnings;
static char warned[256];

static const char *fake_getenv(const char *name)
{
	for (int i = 0; fake_env[i][0]; i++)
		if (strcmp(fake_env[i][0], name) == 0)
			return fake_env[i][1];
	return NULL;
}

static void fake_warn(const char *knob, const char *value, const char *expected)
{
	warnings++;
	strncat(warned, knob, sizeof warned - strlen(warned) - 2);
	strcat(warned, " ");
}

static void test_knobs(void)
{
	static const char *const names[] = {"a", "bb", NULL};
	struct rwc_knobs k;
	unsigned long n;
	int e;

	memset(&k, 0, sizeof k);
	ok(rwc_parse_uint("0", 64, &n) == 0 && n == 0, "uint 0");
	ok(rwc_parse_uint("64", 64, &n) == 0 && n == 64, "uint at max");
	ok(rwc_parse_uint("65", 64, &n) < 0, "uint above max");
	ok(rwc_parse_uint("-1", 64, &n) < 0 && rwc_parse_uint("", 64, &n) < 0 &&
	   rwc_parse_uint("12x", 64, &n) < 0 && rwc_parse_uint(" 1", 64, &n) < 0 &&
	   rwc_parse_uint("99999999999999999999999", 64, &n) < 0, "uint garbage, empty, junk, huge");
	ok(rwc_parse_enum("bb", names, &e) == 0 && e == 1, "enum hit");
	ok(rwc_parse_enum("BB", names, &e) < 0 && rwc_parse_enum("", names, &e) < 0, "enum miss");
	ok(rwc_parse_log("/tmp/log.%p") == 0 && rwc_parse_log("/tmp/100%%") == 0, "log template ok");
	ok(rwc_parse_log("") < 0 && rwc_parse_log("/tmp/%d") < 0 && rwc_parse_log("/tmp/%") < 0,
	   "log template: empty, unknown %%-sequence, trailing %%");
	rwc_knobs_load(&k, fake_getenv, fake_warn);
	ok(warnings == 4, "one warning per bad knob (got %d: %s)", warnings, warned);
	ok(k.log[0] == '\0' && k.format == RWC_FORMAT_JSON && k.action == RWC_ACTION_REPORT &&
	   k.backtrace == 16 && k.suppress[0] == '\0', "bad values leave the defaults, good ones apply");
}

/* RWCHECK_GEN_SUPPRESSIONS takes valgrind's words too. */
static const char *gen_value;
static const char *gen_getenv(const char *name)
{
	return strcmp(name, "RWCHECK_GEN_SUPPRESSIONS") == 0 ? gen_value : NULL;
}

static void test_gen_knob(void)
{
	static const char *const in[] = {"0", "no", "1", "yes", "all", "maybe", "YES", ""};
	static const int want[] = {0, 0, 1, 1, 1, 0, 0, 0}, warn[] = {0, 0, 0, 0, 0, 1, 1, 1};

	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct rwc_knobs k;
		int w0 = warnings;

		memset(&k, 0, sizeof k);
		gen_value = in[i];
		rwc_knobs_load(&k, gen_getenv, fake_warn);
		ok(k.gen_suppressions == want[i] && warnings - w0 == warn[i],
		   "RWCHECK_GEN_SUPPRESSIONS='%s': %d, %d warning(s) (got %d, %d)", in[i], want[i], warn[i],
		   k.gen_suppressions, warnings - w0);
	}
}

static void test_secure(void)
{
	char *env[] = {"PATH=/bin", "RWCHECK_LOG=/tmp/x", "RWCHECK_FORMATS=1", "RWCHECK_FORMAT=json", NULL};
	const char *got[4];

	rwc_knobs_environ(env, 0, got, 4);
	ok(rwc_knobs_lookup(got, 4, "RWCHECK_LOG") && strcmp(rwc_knobs_lookup(got, 4, "RWCHECK_LOG"), "/tmp/x") == 0 &&
	   strcmp(rwc_knobs_lookup(got, 4, "RWCHECK_FORMAT"), "json") == 0 && !rwc_knobs_lookup(got, 4, "PATH"),
	   "knobs collected from the environment, names matched whole");
	rwc_knobs_environ(env, 1, got, 4);
	ok(!rwc_knobs_lookup(got, 4, "RWCHECK_LOG") && !rwc_knobs_lookup(got, 4, "RWCHECK_FORMAT"),
	   "secure execution: no knob is read at all");
}

static void test_pagemap(void)
{
	static uint64_t mem[1 << 16];
	struct rwc_pagemap m;
	uintptr_t a, b;
	const unsigned RW = RWC_NEED_READ | RWC_NEED_WRITE, RD = RWC_NEED_READ, W = RWC_NEED_WRITE;

	rwc_pagemap_init(&m, mem, sizeof mem / sizeof mem[0], 12);
	ok(rwc_pagemap_set(&m, 0x1000, 0x3000, RW) == 0 && rwc_pagemap_set(&m, 0x3000, 0x4000, RD) == 0 &&
	   rwc_pagemap_set(&m, 0x40000000, 0x80000000, RW) == 0 &&       /* a whole 1 GiB granule */
	   rwc_pagemap_set(&m, 0x7f0000001000, 0x7f0000002000, RW) == 0, "ranges set");
	ok(rwc_pagemap_good(&m, 0x1800, 0x2800, W, &a, &b) && a == 0x1000 && b == 0x3000,
	   "inside two rw pages: good, with the pages around it");
	ok(!rwc_pagemap_good(&m, 0x2800, 0x3800, W, &a, &b), "into a read-only page: not good for writing");
	ok(rwc_pagemap_good(&m, 0x2800, 0x3800, RD, &a, &b), "... but good for reading");
	ok(!rwc_pagemap_good(&m, 0x3800, 0x4800, RD, &a, &b), "into an unmapped page: not good");
	ok(!rwc_pagemap_good(&m, 0x800, 0x1800, RD, &a, &b), "from an unmapped page: not good");
	ok(rwc_pagemap_good(&m, 0x50000000, 0x50010000, RW, &a, &b) &&
	   rwc_pagemap_good(&m, 0x7ffff000, 0x80000000, RW, &a, &b), "inside a uniform granule");
	ok(!rwc_pagemap_good(&m, 0x7ffff000, 0x80001000, RD, &a, &b), "running off the granule's end");
	ok(rwc_pagemap_good(&m, 0x7f0000001000, 0x7f0000001001, RD, &a, &b) &&
	   !rwc_pagemap_good(&m, 0x7f0000000fff, 0x7f0000001001, RD, &a, &b), "a lone high page");
	ok(rwc_pagemap_set(&m, 0x50000000, 0x50001000, 0) == 0 && !rwc_pagemap_good(&m, 0x50000000, 0x50000001, RD, &a, &b) &&
	   rwc_pagemap_good(&m, 0x50001000, 0x50002000, RW, &a, &b), "a hole punched into a uniform granule");
	ok(!rwc_pagemap_good(&m, 0xffffffffff600000, 0xffffffffff600010, RD, &a, &b), "beyond the tree: cannot tell");
	{ /* random ranges against a plain array of every page's bits */
		static unsigned char want[4096];
		unsigned r = 12345, bad = 0;

		rwc_pagemap_init(&m, mem, sizeof mem / sizeof mem[0], 12);
		memset(want, 0, sizeof want);
		for (int k = 0; k < 2000; k++) {
			unsigned p0, p1, okb;

			r = r * 1103515245u + 12345u;
			p0 = (r >> 8) % 4096;
			r = r * 1103515245u + 12345u;
			p1 = p0 + 1 + (r >> 8) % (k % 7 == 0 ? 2000 : 70);
			p1 = p1 > 4096 ? 4096 : p1;
			okb = (r >> 4) & 3;
			rwc_pagemap_set(&m, 0x7f0000000000 + (uintptr_t)p0 * 4096, 0x7f0000000000 + (uintptr_t)p1 * 4096, okb);
			memset(want + p0, (int)okb, p1 - p0);
		}
		for (unsigned p = 0; p < 4096; p++)
			for (unsigned need = 1; need <= 3; need++)
				bad += rwc_pagemap_good(&m, 0x7f0000000000 + (uintptr_t)p * 4096,
							0x7f0000000000 + (uintptr_t)p * 4096 + 1, need, &a, &b) !=
				       ((want[p] & need) == need);
		ok(bad == 0 && m.ok, "2,000 random ranges over 4,096 pages: every page as set last (%u wrong)", bad);
	}
	rwc_pagemap_init(&m, mem, 600, 12);
	ok(rwc_pagemap_set(&m, 0x1000, 0x2000, RW) < 0 && !m.ok && !rwc_pagemap_good(&m, 0x1000, 0x1001, RD, &a, &b),
	   "out of memory: says so, and answers nothing");
}

static void test_fmt(void)
{
	char b[64], s[8];
	struct rwc_fmt f;

	rwc_fmt_init(&f, b, sizeof b);
	rwc_fmt_json_str(&f, "a\"b\\c\n\x01");
	ok(strcmp(b, "\"a\\\"b\\\\c\\u000a\\u0001\"") == 0, "JSON escapes: %s", b);
	rwc_fmt_init(&f, b, sizeof b);
	rwc_fmt_hex(&f, 0);
	rwc_fmt_char(&f, ' ');
	rwc_fmt_i64(&f, INT64_MIN);
	ok(strcmp(b, "0x0 -9223372036854775808") == 0, "numbers: %s", b);
	rwc_fmt_init(&f, s, sizeof s);
	rwc_fmt_str(&f, "0123456789");
	ok(f.truncated && strcmp(s, "0123456") == 0, "bounded: truncates and says so");
}

static unsigned supp_errors, supp_err_line[8];

static void supp_err(unsigned line, const char *msg, void *arg)
{
	(void)msg;
	(void)arg;
	if (supp_errors < 8)
		supp_err_line[supp_errors] = line;
	supp_errors++;
}

static void test_suppressions(void)
{
	static char text[] =
		"# a comment\n"
		"{\n   one\n   rwcheck:buf-unmapped\n   src:short-read.c:13\n   fun:help*\n}\n"
		"{\n   two\n   rwcheck:*\n   ...\n   fun:main\n}\n"
		"{\n   broken\n   memcheck:Addr4\n}\n"                 /* line 13 */
		"{\n   three\n   rwcheck:offset-*\n   obj:*/libfoo.so\n}\n"
		"stray\n"                                                /* line 21 */
		"{\n   unterminated\n   rwcheck:*\n";                 /* runs to the end */
	struct rwc_supp s[8];
	struct rwc_frame fr[3];
	char gen[512], gen_copy[512];
	unsigned n;

	memset(fr, 0, sizeof fr);
	strcpy(fr[0].function, "load_header");
	strcpy(fr[0].file, "/src/examples/short-read.c");
	fr[0].line = 13;
	strcpy(fr[0].module, "/usr/bin/short-read");
	strcpy(fr[1].function, "helper");
	strcpy(fr[2].function, "main");
	n = rwc_supp_parse(text, strlen(text), s, 8, supp_err, NULL);
	ok(n == 3, "three good suppressions parsed (got %u)", n);
	ok(supp_errors == 3 && supp_err_line[0] == 16 && supp_err_line[1] == 23 && supp_err_line[2] == 26,
	   "errors name their lines (%u errors: %u, %u, %u)", supp_errors, supp_err_line[0],
	   supp_err_line[1], supp_err_line[2]);
	ok(n == 3 && strcmp(s[0].name, "one") == 0 && s[0].line == 2 && s[0].nframes == 2, "fields of the first");
	ok(n == 3 && rwc_supp_match(&s[0], "buf-unmapped", fr, 3), "src basename:line, then a fun glob on the next frame");
	ok(n == 3 && !rwc_supp_match(&s[0], "buf-not-readable", fr, 3), "another problem does not match");
	fr[0].line = 14;
	ok(n == 3 && !rwc_supp_match(&s[0], "buf-unmapped", fr, 3), "another line does not match");
	ok(n == 3 && rwc_supp_match(&s[1], "iovcnt-invalid", fr, 3), "'...' skips frames up to fun:main");
	ok(n == 3 && !rwc_supp_match(&s[1], "iovcnt-invalid", fr, 2), "'...' needs main further up");
	ok(n == 3 && !rwc_supp_match(&s[2], "offset-negative", fr, 3), "obj glob does not match another module");
	rwc_supp_generate(gen, sizeof gen, "buf-unmapped", fr, 3);
	ok(strstr(gen, "rwcheck:buf-unmapped\n   fun:load_header\n   fun:helper\n   fun:main\n}") != NULL,
	   "generated suppression: %s", gen);
	strcpy(gen_copy, gen);
	supp_errors = 0;
	n = rwc_supp_parse(gen_copy, strlen(gen_copy), s, 8, supp_err, NULL);
	ok(n == 1 && supp_errors == 0 && rwc_supp_match(&s[0], "buf-unmapped", fr, 3),
	   "a generated suppression parses and matches its report");
}

/* RWCHECK_CHECKS: lists, changes to the default, garbage. */
static void test_checks_knob(void)
{
	unsigned v = 99;

	ok(rwc_parse_checks("maps,heap", 15, &v) == 0 && v == (1u | 8u), "checks: a list replaces the default");
	ok(rwc_parse_checks("+stack", 15, &v) == 0 && v == 31u, "checks: +stack adds to the default");
	ok(rwc_parse_checks("-heap,-maps", 15, &v) == 0 && v == (2u | 4u), "checks: -heap,-maps take away");
	ok(rwc_parse_checks("all", 15, &v) == 0 && v == 63u, "checks: all");
	ok(rwc_parse_checks("+global", 15, &v) == 0 && v == 47u, "checks: +global");
	ok(rwc_parse_checks("none", 15, &v) == 0 && v == 0, "checks: none");
	ok(rwc_parse_checks("all,-stack", 15, &v) == 0 && v == 47u, "checks: all,-stack");
	v = 7;
	ok(rwc_parse_checks("", 15, &v) < 0 && v == 7, "checks: empty is refused, output untouched");
	ok(rwc_parse_checks("heap,", 15, &v) < 0, "checks: a trailing comma is refused");
	ok(rwc_parse_checks("heap,,maps", 15, &v) < 0, "checks: an empty item is refused");
	ok(rwc_parse_checks("heaps", 15, &v) < 0 && rwc_parse_checks("hea", 15, &v) < 0,
	   "checks: names match whole");
	ok(rwc_parse_checks("-none", 15, &v) < 0, "checks: -none is refused");
}

/* The pure heap and stack verdicts. */
static void test_bounds_verdicts(void)
{
	struct rwc_bounds b, f = {.kind = RWC_HOLDER_FRAME, .lo = 0x1000, .hi = 0x1080, .limit = 0x1068};
	uintptr_t lo = 0, hi = 0;

	/* H(start, requested, usable) */
#define H(s, r, u) (&(struct rwc_heap_block){(s), (r), (u), 0})
#define NOB H(0, 0, 0)
	ok(rwc_heap_verdict(0x2000, 104, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_OK &&
	   b.kind == RWC_HOLDER_BLOCK, "heap: the whole block is fine");
	ok(rwc_heap_verdict(0x2000, 4096, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_HEAP_OVERFLOW &&
	   lo == 0x2068 && hi == 0x3000 && b.lo == 0x2000 && b.hi == 0x2068,
	   "heap: past the block: bad bytes from its end");
	ok(rwc_heap_verdict(0x2032, 54, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_OK,
	   "heap: an interior pointer up to the end is fine");
	ok(rwc_heap_underflow(0x1ff0, 8, H(0x2000, 100, 104), &b, &lo, &hi) == RWC_OK &&
	   rwc_heap_underflow(0x1ff0, 16, H(0x2000, 100, 104), &b, &lo, &hi) == RWC_HEAP_OVERFLOW && lo == 0x1ff8 &&
	   hi == 0x2000 && b.kind == RWC_HOLDER_BLOCK && b.lo == 0x2000 && b.hi == 0x2064,
	   "heap: a range below a block is fine up to the word before its size word, bad from the size word on");
	ok(rwc_heap_underflow(0x1ff8, 16, H(0x2000, 100, 104), &b, &lo, &hi) == RWC_HEAP_OVERFLOW && lo == 0x1ff8 &&
	   hi == 0x2008 && rwc_heap_underflow(0x1ff8, 16, NOB, &b, &lo, &hi) == RWC_OK &&
	   rwc_heap_underflow(0x2000, 16, H(0x2000, 100, 104), &b, &lo, &hi) == RWC_OK,
	   "heap: from the size word into the block: bad; no block or one starting at the range: none");
	ok(rwc_heap_verdict(0x2032, 55, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_HEAP_OVERFLOW &&
	   lo == 0x2068, "heap: one byte past the end from an interior pointer");
	ok(rwc_heap_verdict(0x2000, 100, H(0x2000, 100, 104), NOB, &b, &lo, &hi) == RWC_OK &&
	   b.hi == 0x2064 && b.usable == 104, "heap: the requested bytes are fine");
	ok(rwc_heap_verdict(0x2000, 101, H(0x2000, 100, 104), NOB, &b, &lo, &hi) == RWC_HEAP_OVERFLOW &&
	   lo == 0x2064 && hi == 0x2065 && b.lo == 0x2000 && b.hi == 0x2064 && b.usable == 104,
	   "heap: one byte past the requested ones, within the usable ones");
	ok(rwc_heap_verdict(0x2066, 1, H(0x2000, 100, 104), NOB, &b, &lo, &hi) == RWC_HEAP_OVERFLOW &&
	   lo == 0x2066 && hi == 0x2067 && b.kind == RWC_HOLDER_BLOCK,
	   "heap: a range that starts in the slack: all of it bad");
	ok(rwc_heap_verdict(0x2000, 101, H(0x2000, 200, 104), NOB, &b, &lo, &hi) == RWC_OK && b.hi == 0x2068,
	   "heap: a request above the usable size counts as the usable size");
	ok(rwc_heap_verdict(0x2100, 10, H(0x2000, 104, 104), H(0x2100, 100, 104), &b, &lo, &hi) ==
	   RWC_USE_AFTER_FREE && b.kind == RWC_HOLDER_FREED && lo == 0x2100 && hi == 0x210a &&
	   b.hi == 0x2164 && b.usable == 104, "heap: inside a freed block: use-after-free");
	ok(rwc_heap_verdict(0x2100, 4096, H(0x2000, 104, 104), H(0x2100, 100, 104), &b, &lo, &hi) ==
	   RWC_USE_AFTER_FREE && lo == 0x2100 && hi == 0x2164,
	   "heap: ... the bad bytes: the freed block's requested ones");
	ok(rwc_heap_verdict(0x2100, 10, H(0x2000, 104, 104), H(0x2040, 4096, 4096), &b, &lo, &hi) == RWC_OK,
	   "heap: a freed start inside the live block below is stale: no verdict");
	ok(rwc_heap_verdict(0x2100, 10, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_OK &&
	   b.kind == RWC_HOLDER_NONE, "heap: between blocks: no verdict");
	ok(rwc_heap_verdict(0x2068, 8, &(struct rwc_heap_block){0x2000, 100, 104, 8}, NOB, &b, &lo, &hi) ==
	   RWC_HEAP_OVERFLOW && lo == 0x2068 && hi == 0x2070 && b.kind == RWC_HOLDER_BLOCK && b.hi == 0x2064,
	   "heap: a range that starts in the next chunk's size word: all of it bad, the block below named");
	ok(rwc_heap_verdict(0x206f, 1, &(struct rwc_heap_block){0x2000, 100, 104, 8}, NOB, &b, &lo, &hi) ==
	   RWC_HEAP_OVERFLOW && lo == 0x206f, "heap: ... up to its last byte");
	ok(rwc_heap_verdict(0x2070, 8, &(struct rwc_heap_block){0x2000, 100, 104, 8}, NOB, &b, &lo, &hi) ==
	   RWC_OK && b.kind == RWC_HOLDER_NONE, "heap: past it (the next block's start): no verdict");
	ok(rwc_heap_verdict(0x2068, 8, H(0x2000, 100, 104), NOB, &b, &lo, &hi) == RWC_OK,
	   "heap: past a block whose next bytes are not known the allocator's (mmapped): no verdict");
	ok(rwc_heap_verdict(0x2000, 0, H(0x2000, 104, 104), NOB, &b, &lo, &hi) == RWC_OK, "heap: count 0");
	ok(rwc_heap_verdict(UINTPTR_MAX - 12, 100, H(UINTPTR_MAX - 16, 8, 8), NOB, &b, &lo, &hi) ==
	   RWC_HEAP_OVERFLOW && hi == UINTPTR_MAX, "heap: a range that wraps ends at the top");
#undef H
#undef NOB

	ok(rwc_stack_verdict(0x1010, 0x58, &f, &lo, &hi) == RWC_OK, "stack: up to the first save slot");
	ok(rwc_stack_verdict(0x1010, 0x59, &f, &lo, &hi) == RWC_STACK_OVERFLOW && lo == 0x1068 &&
	   hi == 0x1069, "stack: one byte into the saved registers");
	ok(rwc_stack_verdict(0x1010, 0x400, &f, &lo, &hi) == RWC_STACK_OVERFLOW && lo == 0x1068,
	   "stack: on into the callers' frames");
	ok(rwc_stack_verdict(0x2000, 0x400, &f, &lo, &hi) == RWC_OK, "stack: not in this frame: no verdict");
	f.kind = RWC_HOLDER_VARIABLE; /* a variable of 16 bytes at 0x1010 */
	f.lo = 0x1010, f.hi = f.limit = 0x1020;
	ok(rwc_stack_verdict(0x1014, 12, &f, &lo, &hi) == RWC_OK, "stack: up to the end of the variable");
	ok(rwc_stack_verdict(0x1014, 0x30, &f, &lo, &hi) == RWC_STACK_OVERFLOW && lo == 0x1020 && hi == 0x1044,
	   "stack: past the variable, from its end");
	ok(rwc_stack_verdict(0x1020, 0x30, &f, &lo, &hi) == RWC_OK, "stack: not in this variable: no verdict");
	f.kind = RWC_HOLDER_NONE;
	ok(rwc_stack_verdict(0x1010, 0x400, &f, &lo, &hi) == RWC_OK, "stack: no frame: no verdict");
}

static void test_dw_room(void)
{
	const unsigned long long inf = RLIM_INFINITY, M = 1ull << 20;

	ok(rwc_dw_room(inf, 900 * M, inf, 900 * M, 64 * M), "libdw room: no limits");
	ok(rwc_dw_room(200 * M, 100 * M, inf, 0, 64 * M), "libdw room: 100 MiB to spare under the AS limit");
	ok(!rwc_dw_room(150 * M, 100 * M, inf, 0, 64 * M), "libdw room: 50 MiB to spare is too little");
	ok(!rwc_dw_room(100 * M, 120 * M, inf, 0, 64 * M), "libdw room: already over the AS limit");
	ok(!rwc_dw_room(inf, 0, 80 * M, 30 * M, 64 * M), "libdw room: the data limit counts too");
	ok(rwc_dw_room(164 * M, 100 * M, 164 * M, 100 * M, 64 * M), "libdw room: exactly enough");
}

/* symscope: the loader's rules, read from the loaded modules (this test
 * defines no malloc: the first is libc's, or a sanitizer's runtime). */
static void test_symscope(void)
{
	const char *ver = rwc_libc_symver("malloc");
	const struct link_map *m, *libc = NULL;
	void *p = NULL, *q = NULL;
	Dl_info info;

	ok(ver && strncmp(ver, "GLIBC_", 6) == 0, "symscope: libc's version of malloc (%s)", ver ? ver : "none");
	m = rwc_sym_first("malloc", ver, NULL, &p);
	ok(m && p == (void *)&malloc, "symscope: the first malloc is the one this program calls (%s)",
	   m ? m->l_name : "none");
	dladdr1((void *)&gnu_get_libc_version, &info, (void **)&libc, RTLD_DL_LINKMAP);
	ok(libc && rwc_sym_first("malloc", ver, libc->l_prev, &q) == libc, "symscope: libc defines it (%s)",
	   libc ? libc->l_name : "none");
	ok(libc && !rwc_sym_first("malloc", ver, libc, &q), "symscope: none after libc's");
	ok(libc && !rwc_sym_first("malloc", "NO_SUCH_VERSION", libc->l_prev, &q),
	   "symscope: libc's versioned malloc does not answer another version");
	ok(!rwc_sym_first("rwc_no_such_symbol", NULL, NULL, &q), "symscope: an unknown name is not found");
}

/* ---- the CFI interpreter (frames/cfi.c) on hand-made .eh_frame bytes ---- */

/* A module image: .eh_frame_hdr at 0, a CIE at 32, its FDE after it,
 * covering the made-up function [F, F+16): push rbp; mov rsp,rbp; ...;
 * remember/restore around an early "ret" at F+10.  Returns its length. */
static size_t cfi_image(uint8_t *m, uintptr_t f_off)
{
	uintptr_t base = (uintptr_t)m;
	uint8_t cie[] = {0, 0, 0, 0, /* id */ 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
			 0x0c, 7, 8, 0x90, 1, 0, 0, 0, 0};
	uint8_t insns[] = {0x41, 0x0e, 16, 0x86, 2, /* F+1: cfa rsp+16, rbp at cfa-16 */
			   0x43, 0x0d, 6,               /* F+4: cfa rbp+16 */
			   0x46, 0x0a, 0x0c, 7, 8,     /* F+10: remember; cfa rsp+8 */
			   0x41, 0x0b,                  /* F+11: restore: cfa rbp+16 again */
			   0, 0, 0};
	size_t cie_at = 32, fde_at = cie_at + 4 + sizeof cie, end;
	uint32_t len = sizeof cie;
	int32_t v;

	memset(m, 0, 256);
	m[0] = 1, m[1] = 0x1b, m[2] = 0x03, m[3] = 0x3b;
	v = (int32_t)(cie_at - 4), memcpy(m + 4, &v, 4); /* eh_frame_ptr, pcrel */
	v = 1, memcpy(m + 8, &v, 4);                      /* one entry */
	v = (int32_t)f_off, memcpy(m + 12, &v, 4);
	v = (int32_t)fde_at, memcpy(m + 16, &v, 4);
	memcpy(m + cie_at, &len, 4);
	memcpy(m + cie_at + 4, cie, sizeof cie);
	len = 4 + 4 + 4 + 1 + sizeof insns;
	memcpy(m + fde_at, &len, 4);
	v = (int32_t)(fde_at + 4 - cie_at), memcpy(m + fde_at + 4, &v, 4);
	v = (int32_t)(f_off - (fde_at + 8)), memcpy(m + fde_at + 8, &v, 4); /* pc_begin, pcrel */
	v = 16, memcpy(m + fde_at + 12, &v, 4);                             /* pc_range */
	m[fde_at + 16] = 0;                                                 /* no augmentation data */
	memcpy(m + fde_at + 17, insns, sizeof insns);
	end = fde_at + 4 + len;
	(void)base;
	return end + 4; /* a zero terminator */
}

static void test_cfi(void)
{
	static uint8_t img[256] __attribute__((aligned(8)));
	uintptr_t f_off = 200, b = (uintptr_t)img, f = b + f_off, fde;
	size_t n = cfi_image(img, f_off);
	struct rwc_cfi_mem m = {b, b + n, NULL};
	struct rwc_cfi_row row;
	int good = 1;

	fde = rwc_cfi_search(&m, b, f);
	ok(fde == b + 32 + 4 + 22, "cfi: the search table finds the FDE (%#lx)", (unsigned long)(fde - b));
	ok(rwc_cfi_search(&m, b, f - 1) == 0, "cfi: a pc below every entry has none");
	ok(rwc_cfi_row(&m, fde, f, &row) && row.cfa_reg == RWC_CFI_RSP && row.cfa_off == 8 &&
	   row.rule[RWC_CFI_RA] == RWC_CFI_OFFSET && row.off[RWC_CFI_RA] == -8 && row.rule[RWC_CFI_RBP] == RWC_CFI_SAME,
	   "cfi: at the entry, CFA = rsp+8, return address at CFA-8 (the CIE's rules)");
	ok(rwc_cfi_row(&m, fde, f + 1, &row) && row.cfa_reg == RWC_CFI_RSP && row.cfa_off == 16 &&
	   row.rule[RWC_CFI_RBP] == RWC_CFI_OFFSET && row.off[RWC_CFI_RBP] == -16,
	   "cfi: after push rbp, CFA = rsp+16, rbp saved at CFA-16");
	ok(rwc_cfi_row(&m, fde, f + 9, &row) && row.cfa_reg == RWC_CFI_RBP && row.cfa_off == 16,
	   "cfi: in the body, CFA = rbp+16");
	ok(rwc_cfi_row(&m, fde, f + 10, &row) && row.cfa_reg == RWC_CFI_RSP && row.cfa_off == 8 &&
	   row.rule[RWC_CFI_RBP] == RWC_CFI_OFFSET,
	   "cfi: at the early return (remember_state, def_cfa), CFA = rsp+8");
	ok(rwc_cfi_row(&m, fde, f + 15, &row) && row.cfa_reg == RWC_CFI_RBP && row.cfa_off == 16,
	   "cfi: after restore_state, CFA = rbp+16 again (the CFA is restored too)");
	ok(!rwc_cfi_row(&m, fde, f + 16, &row) && !rwc_cfi_row(&m, fde, f - 1, &row),
	   "cfi: a pc outside the FDE's range: no row");
	/* Every truncation of the image and every one-byte change: never a
	 * read outside (make check-asan), and no row where the bytes that
	 * matter are cut off. */
	for (size_t cut = 0; cut < n - 4; cut++) {
		struct rwc_cfi_mem t = {b, b + cut, NULL};
		uintptr_t e = rwc_cfi_search(&t, b, f + 5);

		if (e && rwc_cfi_row(&t, e, f + 5, &row) && cut < 32 + 4 + 22 + 4 + 17)
			good = 0;
	}
	ok(good, "cfi: truncated images give no row");
	good = 1;
	for (size_t i = 0; i < n; i++)
		for (int bit = 0; bit < 8; bit++) {
			uintptr_t e;

			cfi_image(img, f_off);
			img[i] ^= (uint8_t)(1u << bit);
			e = rwc_cfi_search(&m, b, f + 5);
			if (e && rwc_cfi_row(&m, e, f + 5, &row) && row.cfa_reg >= RWC_CFI_NREGS)
				good = 0;
		}
	ok(good, "cfi: every one-bit change: no crash, no register out of range");
	cfi_image(img, f_off);
	img[32 + 4 + 4] = 'e'; /* augmentation "eR": unknown, cannot be skipped */
	ok(!rwc_cfi_row(&m, fde, f + 5, &row), "cfi: an augmentation without 'z': no row");
	cfi_image(img, f_off);
	img[32 + 4 + 10] = 15; /* return address column 15: not x86-64's */
	ok(!rwc_cfi_row(&m, fde, f + 5, &row), "cfi: another return-address column: no row");
	cfi_image(img, f_off);
	img[3] = 0x1b; /* a table encoding other than datarel sdata4 */
	ok(!rwc_cfi_search(&m, b, f + 5), "cfi: an unknown table encoding: no FDE");
}

/* The site table: one id per key, kept; the sites of one module's code
 * (a 16 MiB window: a large program's text too) on one page of the table; a full page's keys still get
 * ids elsewhere; a full table gives 0, never a wrong id. */
static void test_sites(void)
{
	uintptr_t base = (uintptr_t)0x55d0c0a00000ull, far = (uintptr_t)0x7f3a12400000ull;
	uint32_t id[700], page, same = 1, distinct = 1, back = 1, n = 0;

	for (int i = 0; i < 40; i++) /* a small program's sites in one module */
		id[i] = rwc_site_id(base + 0x1000 + (uintptr_t)i * 0x2a3);
	page = id[0] / RWC_SITE_PAGE;
	for (int i = 0; i < 40; i++) {
		same &= id[i] / RWC_SITE_PAGE == page;
		back &= id[i] != 0 && rwc_site_key(id[i]) == base + 0x1000 + (uintptr_t)i * 0x2a3 &&
			rwc_site_id(base + 0x1000 + (uintptr_t)i * 0x2a3) == id[i];
	}
	ok(same && back, "sites: 40 sites of one module: one page of the table, each id kept and found again");
	/* a page's first access is the claim's write (no zero page mapped
	 * by a read first): the page is marked written, and a key there is
	 * then found by the first-slot look, never the probing path */
	ok((__atomic_load_n(&rwc_site_pages, __ATOMIC_RELAXED) & RWC_SITE_MARK(id[0])) &&
	   (rwc_site_pages & RWC_SITE_MARK(id[39])) && __builtin_popcountll(rwc_site_pages) <= 4,
	   "sites: the pages the 40 keys are on are marked written, few others (%d of 33 marked)",
	   __builtin_popcountll(rwc_site_pages));
	for (int i = 0; i < 40; i++) /* a large program's: 12 MiB of code (git's text is 3) */
		id[i] = rwc_site_id((uintptr_t)0x55d0c2000000ull + (uintptr_t)i * 0x4cccc);
	for (int i = 0; i < 40; i++)
		same &= id[i] != 0 && id[i] / RWC_SITE_PAGE == id[0] / RWC_SITE_PAGE;
	ok(same, "sites: 40 sites over 12 MiB of one module's code: one page of the table");
	for (int i = 0; i < 700; i++) /* more than a page holds, one window */
		id[i] = rwc_site_id(far + (uintptr_t)i * 0x101);
	for (int i = 0; i < 700; i++) {
		back &= id[i] != 0 && rwc_site_key(id[i]) == far + (uintptr_t)i * 0x101 &&
			rwc_site_id(far + (uintptr_t)i * 0x101) == id[i];
		for (int j = 0; j < i; j++)
			distinct &= id[i] != id[j];
	}
	ok(back && distinct, "sites: 700 sites of one window (past a page): distinct ids, each found again");
	for (uintptr_t k = 1; k < 40000; k++) /* fills the table */
		n += rwc_site_id(k * 0x10 + 0x400000) != 0;
	back = 1;
	for (uintptr_t k = 1; k < 40000; k++) {
		uint32_t i = rwc_site_id(k * 0x10 + 0x400000);
		back &= i == 0 || rwc_site_key(i) == k * 0x10 + 0x400000;
	}
	ok(n > 12000 && n < RWC_SITE_SLOTS && back && rwc_site_id(0) == 0 && rwc_site_key(0) == 0,
	   "sites: a full table: most keys kept, the others 0, no id shared");
}

/* The call-site cache's records: what is written is read back the same;
 * a changed byte, a short end, a wrong count: not taken. */
static void test_sitefmt(void)
{
	struct rwc_sf_var v[3] = {{1, 36, -48, 16, "name", "char [16]", "x.c", "f"},
				  {2, 0, 8, 240, "rest", "char [240]", NULL, NULL},
				  {1, 7, -8, 8, "p", "char *", "x.c", "g"}}, r[3], w;
	unsigned char b[512], c[512];
	size_t l = rwc_sf_encode(0x1234, v, 3, b, sizeof b), bad = 0;
	uint64_t pc = 0;
	unsigned n = 0;
	int same;

	rwc_sf_vars(b, r);
	w = r[1];
	same = l > 0 && rwc_sf_decode(b, l, &pc, &n) == l && pc == 0x1234 && n == 3 && w.base == 2 && w.off == 8 &&
	       w.size == 240 && !strcmp(w.name, "rest") && !strcmp(w.type, "char [240]") && !w.file && !w.func;
	w = r[2];
	ok(same && w.line == 7 && w.off == -8 && !strcmp(w.func, "g"), "sitefmt: a record read back as written");
	ok(rwc_sf_decode(b, l - 1, &pc, &n) == 0 && rwc_sf_encode(1, v, 3, b, l - 1) == 0 &&
	   rwc_sf_encode(1, v, RWC_SF_MAXVARS + 1, b, sizeof b) == 0,
	   "sitefmt: a record cut short is not taken; one that does not fit is not written");
	rwc_sf_encode(0x1234, v, 3, b, sizeof b);
	for (size_t i = 0; i < l; i++)
		for (int bit = 0; bit < 8; bit++) {
			memcpy(c, b, l);
			c[i] ^= (unsigned char)(1u << bit);
			bad += rwc_sf_decode(c, l, &pc, &n) != 0;
		}
	ok(bad == 0, "sitefmt: each of the %zu single-bit changes of a record is refused (%zu taken)", l * 8, bad);
	l = rwc_sf_encode(7, v, 0, b, sizeof b);
	ok(l > 0 && rwc_sf_decode(b, l, &pc, &n) == l && pc == 7 && n == 0, "sitefmt: a site without variables");
}

/* The object cache's file (bounds/objcache.h): a table read back as
 * written, relative to the module's load bias; a changed bit, a short
 * file, an object outside the module, out of order or with a name past
 * the string table: not taken. */
static void test_objcache(void)
{
	const uintptr_t bias = 0x555500000000, start = bias + 0x1000, end = bias + 0x9000, d = 0x10000000;
	const struct rwc_oc_ident f = {1, 2, 3, 4, 5};
	struct rwc_oc_ident g = f;
	struct rwc_gobj o[3] = {{bias + 0x2000, bias + 0x2040, (const char *)(RWC_GOBJ_OFFSET | 5)},
				{bias + 0x2040, bias + 0x2100, (const char *)(RWC_GOBJ_OFFSET | 17)},
				{bias + 0x8000, bias + 0x9000, (const char *)(RWC_GOBJ_OFFSET | 0)}}, *t = NULL;
	_Alignas(16) unsigned char b[512], c[512];
	size_t l = rwc_oc_size(3), bad = 0, n;
	uint64_t so = 0, ss = 0, *id = (uint64_t *)(void *)&g;

	rwc_oc_encode(o, 3, bias, 4096, 100, &f, b);
	memcpy(c, b, l); /* read by a process that loaded the module elsewhere */
	n = rwc_oc_decode(c, l, &f, bias + d, start + d, end + d, &t, &so, &ss);
	ok(n == 3 && so == 4096 && ss == 100 && (unsigned char *)t == c + RWC_OC_HEAD && t[0].lo == o[0].lo + d &&
	   t[2].hi == end + d && rwc_oc_head(b, l, &f) == 3, "objcache: a table read back, at another load bias");
	memcpy(c, b, l);
	n = rwc_oc_decode(c, l, &f, bias, start, end, &t, &so, &ss);
	ok(n == 3 && t[0].lo == o[0].lo && t[1].hi == o[1].hi && t[2].lo == o[2].lo && t[2].hi == end &&
	   t[1].name == o[1].name && t[2].name == o[2].name,
	   "objcache: objects at the module's addresses, names as string table offsets");
	for (size_t i = 0; i < l; i++)
		for (int bit = 0; bit < 8; bit++) {
			memcpy(c, b, l);
			c[i] ^= (unsigned char)(1u << bit);
			bad += rwc_oc_decode(c, l, &f, bias, start, end, &t, &so, &ss) != 0;
		}
	ok(bad == 0, "objcache: each of the %zu single-bit changes of a file is refused (%zu taken)", l * 8, bad);
	for (int k = 0; k < 5; k++) { /* another file: a copy, a stripped one, a rebuild */
		g = f;
		id[k]++;
		memcpy(c, b, l);
		bad += rwc_oc_head(b, l, &g) != SIZE_MAX || rwc_oc_decode(c, l, &g, bias, start, end, &t, &so, &ss);
	}
	ok(bad == 0, "objcache: the table of a file of another device, inode, size or time is refused");
	memcpy(c, b, l);
	ok(rwc_oc_decode(c, l - 8, &f, bias, start, end, &t, &so, &ss) == 0 && rwc_oc_head(b, l + 8, &f) == SIZE_MAX &&
	   rwc_oc_decode(c, l, &f, bias, start, end - 1, &t, &so, &ss) == 0 &&
	   rwc_oc_decode(c, l, &f, bias, start + 0x1001, end, &t, &so, &ss) == 0,
	   "objcache: a file cut short or longer, or a table that runs out of the module, is refused");
	o[2].name = (const char *)(RWC_GOBJ_OFFSET | 100); /* past the string table */
	rwc_oc_encode(o, 3, bias, 4096, 100, &f, b);
	n = rwc_oc_decode(b, l, &f, bias, start, end, &t, &so, &ss);
	o[2].name = (const char *)RWC_GOBJ_OFFSET;
	o[1].lo = bias + 0x2020; /* overlapping the one before */
	rwc_oc_encode(o, 3, bias, 4096, 100, &f, c);
	ok(n == 0 && rwc_oc_decode(c, l, &f, bias, start, end, &t, &so, &ss) == 0,
	   "objcache: a name past the string table, or objects out of order, are refused");
}

static int first_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	char *hex = arg;

	(void)size;
	return (int)rwc_sf_build_id(info->dlpi_phdr, info->dlpi_phnum, info->dlpi_addr, hex, 132) > 0 ? 1 : -1;
}

static void test_build_id(void)
{
	char hex[132] = "";
	int r = dl_iterate_phdr(first_module, hex);
	size_t digits = strspn(hex, "0123456789abcdef");

	ok(r == 1 && strlen(hex) >= 16 && digits == strlen(hex),
	   "sitefmt: the test program's build-id from its notes in memory (%s)", hex);
	ok(rwc_sf_build_id(NULL, 0, 0, hex, sizeof hex) == 0, "sitefmt: no program headers, no build-id");
}

/* The objects table: sorted and merged as a brute force says (each
 * address held by the merged object that the union of the symbols
 * covering it makes), on random tables with many aliases and overlaps,
 * and one of 20,000 objects at one address (the sort's worst case). */
static int gobj_oracle(const struct rwc_gobj *in, size_t n, const struct rwc_gobj *out, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (out[i].lo >= out[i].hi || (i && out[i].lo < out[i - 1].hi))
			return 0;
	for (uintptr_t a = 0; a < 1100; a++) {
		int covered = 0;
		long at = -1;
		uintptr_t glo, ghi;

		for (size_t j = 0; j < n; j++)
			covered |= in[j].lo <= a && a < in[j].hi;
		at = rwc_gobj_find(out, k, a, 0, 1100, &glo, &ghi);
		if (covered != (at >= 0) || (at < 0 && !(glo <= a && a < ghi)))
			return 0;
		/* a merged object starts at a symbol's start, ends at one's end */
		if (at >= 0) {
			int s = 0, e = 0;

			for (size_t j = 0; j < n; j++)
				s |= in[j].lo == out[at].lo, e |= in[j].hi == out[at].hi;
			if (!s || !e)
				return 0;
		}
	}
	return 1;
}

static void test_gobjs(void)
{
	static struct rwc_gobj in[20000], out[20000];
	unsigned r = 12345, good = 0, rounds = 300, named = 1;
	size_t k;

	for (unsigned t = 0; t < rounds; t++) {
		size_t n = 1 + (size_t)(t % 97);

		for (size_t j = 0; j < n; j++) {
			r = r * 1103515245u + 12345u;
			in[j].lo = (r >> 8) % 1000;
			in[j].hi = in[j].lo + 1 + (r >> 4) % (t % 3 ? 8 : 60);
			in[j].name = (const char *)(uintptr_t)(j + 1);
		}
		memcpy(out, in, n * sizeof *in); /* odd rounds: the heapsort alone */
		k = t % 2 ? rwc_gobj_sort_merge_depth(out, n, 0) : rwc_gobj_sort_merge(out, n);
		good += gobj_oracle(in, n, out, k);
		for (size_t i = 0; i < k; i++) { /* the name of a symbol starting there */
			size_t j = (uintptr_t)out[i].name - 1;
			named &= j < n && in[j].lo == out[i].lo;
		}
	}
	ok(good == rounds && named,
	   "gobjs: %u random tables sorted and merged as the brute force says, by introsort and by heapsort (%u)",
	   rounds, good);
	/* the sort's worst case: 5,000 copies of one symbol, then a few lower
	 * ones the sort must bring to the front (past its depth limit, the
	 * heapsort does) */
	for (size_t j = 0; j < 5000; j++)
		in[j] = (struct rwc_gobj){600, 610, NULL};
	for (size_t j = 0; j < 12; j++)
		in[5000 + j] = (struct rwc_gobj){(uintptr_t)(20 + 40 * j), (uintptr_t)(30 + 40 * j + j % 3), NULL};
	memcpy(out, in, 5012 * sizeof *in);
	k = rwc_gobj_sort_merge(out, 5012);
	ok(k == 13 && gobj_oracle(in, 5012, out, k), "gobjs: 5,000 copies of one symbol and 12 below it: sorted (%zu)", k);
	in[0] = (struct rwc_gobj){100, 116, "a"}, in[1] = (struct rwc_gobj){100, 132, "b"};
	k = rwc_gobj_sort_merge(in, 2);
	ok(k == 1 && in[0].hi == 132 && !strcmp(in[0].name, "b"), "gobjs: at one address, the larger symbol's name");
}

/* What a module's segments serve (mapview/segrule.c): the one PT_LOAD
 * whose pages hold the range, with its permissions; no write into the
 * RELRO's pages; nothing where the range runs past a segment's last page
 * or meets another segment's page; the run around it clipped to the
 * pages that serve the same. */
static void test_seg_rule(void)
{
	static const ElfW(Phdr) ph[] = {
		{.p_type = PT_PHDR, .p_vaddr = 0x40, .p_memsz = 0x200, .p_flags = PF_R},
		{.p_type = PT_LOAD, .p_vaddr = 0, .p_memsz = 0x800, .p_flags = PF_R},
		{.p_type = PT_LOAD, .p_vaddr = 0x1000, .p_memsz = 0x1800, .p_flags = PF_R | PF_X},
		{.p_type = PT_LOAD, .p_vaddr = 0x3000, .p_memsz = 0x500, .p_flags = PF_R},
		{.p_type = PT_LOAD, .p_vaddr = 0x4df0, .p_memsz = 0x2300, .p_flags = PF_R | PF_W},
		{.p_type = PT_GNU_RELRO, .p_vaddr = 0x4df0, .p_memsz = 0x210, .p_flags = PF_R},
	};
	static const ElfW(Phdr) shared[] = { /* two segments on one page */
		{.p_type = PT_LOAD, .p_vaddr = 0x9000, .p_memsz = 0x100, .p_flags = PF_R},
		{.p_type = PT_LOAD, .p_vaddr = 0x9100, .p_memsz = 0x100, .p_flags = PF_R | PF_W},
	};
	const uintptr_t b = 0x10000, pg = 0x1000;
	const unsigned rw = RWC_NEED_READ | RWC_NEED_WRITE;
	uintptr_t lo = 0, hi = 0;
	int n = (int)(sizeof ph / sizeof ph[0]);

	ok(rwc_seg_rule(ph, n, b, pg, b + 0x1100, b + 0x1108, &lo, &hi) == RWC_NEED_READ && lo == b + 0x1000 &&
	   hi == b + 0x3000, "segrule: code is read-only, its run its segment's pages");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x10, b + 0x20, &lo, &hi) == RWC_NEED_READ, "segrule: the headers' segment");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x5100, b + 0x5110, &lo, &hi) == rw && lo == b + 0x5000 && hi == b + 0x8000,
	   "segrule: data past the RELRO is read and write, its run from the RELRO's end to the bss's last page");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x4e00, b + 0x4e08, &lo, &hi) == RWC_NEED_READ,
	   "segrule: RELRO data is read-only");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x4ff8, b + 0x5008, &lo, &hi) == RWC_NEED_READ,
	   "segrule: a range that starts in the RELRO's page: read-only");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x7ff0, b + 0x8000, &lo, &hi) == rw, "segrule: the bss's last page");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x7ff8, b + 0x8008, &lo, &hi) == 0, "segrule: past the bss's last page: nothing");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x2ff0, b + 0x3010, &lo, &hi) == 0, "segrule: across two segments: nothing");
	ok(rwc_seg_rule(ph, n, b, pg, b + 0x9000, b + 0x9010, &lo, &hi) == 0, "segrule: outside the module: nothing");
	ok(rwc_seg_rule(shared, 2, b, pg, b + 0x9180, b + 0x9190, &lo, &hi) == 0,
	   "segrule: a page two segments share: nothing");
	ok(rwc_seg_up(UINTPTR_MAX - 5, pg) == rwc_seg_down(UINTPTR_MAX, pg), "segrule: rounding up saturates");
}

/* frames/demangle.c with a stand-in for __cxa_demangle. */
static int dem_calls;
static char *fake_demangler(const char *m, char *buf, size_t *len, int *status)
{
	static const char *const map[][2] = {{"_Z1fv", "f()"}, {"_Z3fooi", "foo(int)"}};

	(void)buf;
	(void)len;
	dem_calls++;
	if (strlen(m) > 500) { /* the long name arrived whole */
		*status = -2;
		return NULL;
	}
	if (strncmp(m, "_Z3fooix", 8) == 0) { /* ... or cut: a wrong name */
		*status = 0;
		return strdup("cut(int)");
	}
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(m, map[i][0]) == 0) {
			*status = 0;
			return strdup(map[i][1]);
		}
	*status = -2;
	return NULL;
}

static void demangled(const char *in, size_t cap, const char *want, const char *what)
{
	char name[64];

	memset(name, '#', sizeof name);
	rwc_demangle_with(fake_demangler, free, in, name, cap);
	ok(strcmp(name, want) == 0, "demangle: %s (%s -> %s)", what, in, name);
}

static void test_demangle(void)
{
	char longname[600];

	demangled("_Z1fv", 64, "f()", "a mangled name");
	demangled("_Z3fooi@@GLIBCXX_3.4", 64, "foo(int)@@GLIBCXX_3.4", "its version suffix kept");
	demangled("_Z3fooi@@GLIBCXX_3.4", 12, "foo(int)@@G", "cut to the room there is");
	demangled("_Z3fooi", 5, "foo(", "cut, no suffix");
	demangled("_Zjunk", 64, "_Zjunk", "what the demangler refuses stays");
	demangled("_Zjunk", 4, "_Zj", "... cut");
	dem_calls = 0;
	demangled("main", 64, "main", "a C name stays");
	demangled("__libc_start_main@@GLIBC_2.34", 64, "__libc_start_main@@GLIBC_2.34", "a versioned C name stays");
	demangled(NULL, 64, "", "no name: empty");
	ok(dem_calls == 0, "demangle: C names never reach the demangler");
	/* the whole name reaches the demangler, however long (a cut one could
	 * demangle to another signature) */
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	memcpy(longname, "_Z3fooi", 7);
	dem_calls = 0;
	demangled(longname, 16, "_Z3fooixxxxxxxx", "a long name: whole to the demangler, which refuses it, then cut");
	ok(dem_calls == 1, "demangle: a long name reaches the demangler whole");
}

int main(void)
{
	test_demangle();
	test_seg_rule();
	test_gobjs();
	test_sites();
	test_sitefmt();
	test_objcache();
	test_build_id();
	test_symscope();
	test_verdicts();
	test_scalars();
	test_parse_line();
	test_scan();
	test_knobs();
	test_gen_knob();
	test_secure();
	test_pagemap();
	test_fmt();
	test_suppressions();
	test_checks_knob();
	test_bounds_verdicts();
	test_dw_room();
	test_cfi();
	return done_testing();
}
