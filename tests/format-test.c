/* format-test.c: golden tests of the report formats (TAP).  Each case is a
 * call and a finding made up here, formatted as text and as JSON and
 * compared byte for byte with tests/golden/<case>.txt and .json (under
 * $RWC_SRCDIR).  RWC_GOLDEN_WRITE=1 writes the files instead (review the
 * diff before committing them). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "base/knobs.h"
#include "report/format.h"
#include "report/format_object.h"
#include "tap.h"

static char out[1 << 16];

static struct rwc_frame frames[3] = {
	{0x401234, 0x1234, "/usr/bin/victim", "parse_header", "victim.c", 42},
	{0x401400, 0x1400, "/usr/bin/victim", "main", "victim.c", 97},
	{0x7f0000021000, 0x21000, "/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_main", "", 0},
};

static void check(const char *name, const char *ext, const char *got)
{
	const char *dir = getenv("RWC_SRCDIR");
	char path[4096], want[sizeof out];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/tests/golden/%s.%s", dir ? dir : ".", name, ext);
	if (getenv("RWC_GOLDEN_WRITE")) {
		f = fopen(path, "w");
		ok(f && fputs(got, f) >= 0 && fclose(f) == 0, "%s.%s written", name, ext);
		return;
	}
	f = fopen(path, "r");
	if (f) {
		n = fread(want, 1, sizeof want - 1, f);
		fclose(f);
	}
	want[n] = '\0';
	ok(f && strcmp(want, got) == 0, "%s: the %s report as in tests/golden/%s.%s", name, ext, name, ext);
	if (!f || strcmp(want, got) != 0)
		printf("# got:\n%s\n", got);
}

static void both(const char *name, const struct rwc_call *c, const struct rwc_finding *f)
{
	struct rwc_fmt o;
	char text[sizeof out];

	rwc_fmt_init(&o, out, sizeof out);
	rwc_format_text(&o, 4242, c, f, frames, 3);
	memcpy(text, out, o.len);
	text[o.len] = '\0';
	check(name, "txt", text);
	rwc_fmt_init(&o, out, sizeof out);
	rwc_format_json(&o, 4242, c, f, frames, 3, text, "{\n   <supp>\n}", 0);
	out[o.len] = '\0';
	check(name, "json", out);
}

static struct rwc_finding finding(enum rwc_problem p, const void *buf, size_t count)
{
	struct rwc_finding f;

	memset(&f, 0, sizeof f);
	f.problem = p;
	f.what = "buf";
	f.iov_index = -1;
	f.msg_index = -1;
	f.buf = buf;
	f.count = count;
	return f;
}

static void desc(struct rwc_region_desc *d, uintptr_t lo, uintptr_t hi, unsigned prot, const char *path)
{
	d->valid = 1;
	d->start = lo;
	d->end = hi;
	d->prot = prot;
	snprintf(d->path, sizeof d->path, "%s", path);
}

static void read_not_writable(void)
{
	struct rwc_call c = {.name = "read", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE, .fd = 3,
			     .buf = (void *)0x555555558000, .count = 8192};
	struct rwc_finding f = finding(RWC_BUF_NOT_WRITABLE, c.buf, c.count);

	f.v.problem = RWC_BUF_NOT_WRITABLE;
	f.v.lo = 0x555555558000;
	f.v.hi = 0x55555555a000;
	f.v.bad_lo = 0x555555559000;
	f.v.bad_hi = 0x55555555a000;
	desc(&f.v.prev, 0x555555554000, 0x555555559000, RWC_PROT_R | RWC_PROT_W, "/usr/bin/victim");
	desc(&f.v.at, 0x555555559000, 0x55555555b000, RWC_PROT_R, "/usr/bin/victim");
	both("read_not_writable", &c, &f);
}

static void pread_offset(void)
{
	static char buf[64];
	struct rwc_call c = {.name = "pread64", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE, .fd = 5,
			     .buf = buf, .count = 64, .has_offset = 1, .offset = -4096};
	struct rwc_finding f = finding(RWC_OFFSET_NEGATIVE, buf, 64);

	f.buf = (void *)0x7ffc0000;
	c.buf = f.buf;
	both("pread_offset", &c, &f);
}

static void readv_unmapped(void)
{
	struct rwc_call c = {.name = "readv", .shape = RWC_SHAPE_IOV, .need = RWC_NEED_WRITE, .fd = 0,
			     .iov = (void *)0x7ffd1000, .iovcnt = 3};
	struct rwc_finding f = finding(RWC_BUF_UNMAPPED, (void *)0x7f00dead0000, 4096);

	f.what = "iov";
	f.iov_index = 2;
	f.total = 4096 + 200;
	f.v.problem = RWC_BUF_UNMAPPED;
	f.v.lo = 0x7f00dead0000;
	f.v.hi = 0x7f00dead1000;
	f.v.bad_lo = 0x7f00dead0000;
	f.v.bad_hi = 0x7f00dead1000;
	desc(&f.v.prev, 0x7f00dea00000, 0x7f00deac0000, RWC_PROT_R | RWC_PROT_W, "");
	desc(&f.v.next, 0x7f00deb00000, 0x7f00deb10000, RWC_PROT_R | RWC_PROT_X | RWC_PROT_SHARED, "/dev/shm/x");
	both("readv_unmapped", &c, &f);
}

static void heap_overflow(void)
{
	struct rwc_call c = {.name = "recv", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE, .fd = 7,
			     .buf = (void *)0x5555555592a0, .count = 200};
	struct rwc_finding f = finding(RWC_HEAP_OVERFLOW, c.buf, c.count);

	f.bounds.kind = RWC_HOLDER_BLOCK;
	f.bounds.lo = 0x5555555592a0;
	f.bounds.hi = 0x555555559308;
	f.bounds.limit = f.bounds.hi;
	f.bounds.usable = 120;
	f.v.lo = 0x5555555592a0;
	f.v.hi = f.v.lo + 200;
	f.v.bad_lo = f.bounds.hi;
	f.v.bad_hi = f.v.hi;
	f.origin = frames;
	f.norigin = 2;
	both("heap_overflow", &c, &f);
}

static void global_overflow(void)
{
	struct rwc_call c = {.name = "read", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE, .fd = 3,
			     .buf = (void *)0x5555555580c0, .count = 128};
	struct rwc_finding f = finding(RWC_GLOBAL_OVERFLOW, c.buf, c.count);

	f.bounds.kind = RWC_HOLDER_GLOBAL;
	f.bounds.lo = 0x5555555580c0;
	f.bounds.hi = f.bounds.limit = 0x5555555580e0;
	f.bounds.name = "hdr";
	f.bounds.module = "/usr/bin/victim";
	f.bounds.into = "next_obj";
	f.v.lo = 0x5555555580c0;
	f.v.hi = f.v.lo + 128;
	f.v.bad_lo = f.bounds.hi;
	f.v.bad_hi = f.v.hi;
	both("global_overflow", &c, &f);
}

/* A read of 64 bytes into the 16 of a variable of TYPE named NAME that
 * runs into INTO (of INTO_TYPE). */
static void stack_variable_case(const char *golden, const char *name, const char *type, const char *file,
				int line, const char *function, const char *into, const char *into_type)
{
	struct rwc_call c = {.name = "read", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE, .fd = 3,
			     .buf = (void *)0x7ffc46a39860, .count = 64};
	struct rwc_finding f = finding(RWC_STACK_OVERFLOW, c.buf, c.count);

	f.bounds.kind = RWC_HOLDER_VARIABLE;
	f.bounds.lo = 0x7ffc46a39860;
	f.bounds.hi = f.bounds.limit = f.bounds.lo + 16;
	f.bounds.index = 0;
	f.bounds.name = name;
	f.bounds.type = type;
	f.bounds.decl_file = file;
	f.bounds.decl_line = line;
	f.bounds.function = function;
	f.bounds.into = into;
	f.bounds.into_type = into_type;
	f.v.lo = 0x7ffc46a39860;
	f.v.hi = f.v.lo + 64;
	f.v.bad_lo = f.bounds.hi;
	f.v.bad_hi = f.v.hi;
	both(golden, &c, &f);
}

static void stack_variable(void)
{
	stack_variable_case("stack_variable", "name", "char [16]", "/src/x.c", 12, "read_name", "rest", "char [240]");
}

/* C++ types: a template argument's array is not the variable's. */
static void stack_variable_cpp(void)
{
	stack_variable_case("stack_variable_cpp", "p", "struct pair<char [4], int (*)[2]> [2]", "/src/x.cc", 20, "main",
			    "up", "class unique_ptr<char [], std::default_delete<char []> >");
}

static void syscall_count(void)
{
	struct rwc_call c = {.name = "syscall", .sysname = "read", .shape = RWC_SHAPE_BUF, .need = RWC_NEED_WRITE,
			     .fd = 3, .buf = (void *)0x1000, .count = (size_t)-1};
	struct rwc_finding f = finding(RWC_COUNT_TOO_LARGE, c.buf, c.count);

	both("syscall_count", &c, &f);
}

/* A call with an argument list (issue 15): the argument named, its
 * capacity, the in/out length before it. */
static void getsockopt_heap(void)
{
	const struct rwc_arg args[] = {
		{.name = "level", .n = 1, .kind = RWC_ARG_INT},
		{.name = "optname", .n = 3, .kind = RWC_ARG_INT},
		{.name = "optlen", .p = (void *)0x7ffc1000, .n = 4, .need = RWC_NEED_READ | RWC_NEED_WRITE},
		{.name = "optval", .p = (void *)0x5555555592a0, .lenp = (void *)0x7ffc1000, .need = RWC_NEED_WRITE},
	};
	struct rwc_call c = {.name = "getsockopt", .shape = RWC_SHAPE_ARGS, .fd = 3, .args = args, .nargs = 4};
	struct rwc_finding f = finding(RWC_HEAP_OVERFLOW, args[3].p, 64);

	f.what = "optval";
	f.bounds.kind = RWC_HOLDER_BLOCK;
	f.bounds.lo = 0x5555555592a0;
	f.bounds.hi = 0x5555555592b8;
	f.bounds.limit = f.bounds.hi;
	f.v.lo = 0x5555555592a0;
	f.v.hi = f.v.lo + 64;
	f.v.bad_lo = f.bounds.hi;
	f.v.bad_hi = f.v.hi;
	both("getsockopt_heap", &c, &f);
}

/* ... and one without a descriptor. */
static void readlink_unmapped(void)
{
	const struct rwc_arg args[] = {
		{.name = "buf", .p = (void *)0x7f00deacff00, .n = 4096, .need = RWC_NEED_WRITE},
		{.name = "bufsiz", .n = 4096, .kind = RWC_ARG_INT},
	};
	struct rwc_call c = {.name = "readlink", .shape = RWC_SHAPE_ARGS, .fd = -1, .no_fd = 1, .args = args,
			     .nargs = 2};
	struct rwc_finding f = finding(RWC_BUF_UNMAPPED, args[0].p, 4096);

	f.v.problem = RWC_BUF_UNMAPPED;
	f.v.lo = 0x7f00deacff00;
	f.v.hi = f.v.lo + 4096;
	f.v.bad_lo = 0x7f00dead0000;
	f.v.bad_hi = f.v.hi;
	desc(&f.v.prev, 0x7f00dea00000, 0x7f00dead0000, RWC_PROT_R | RWC_PROT_W, "");
	both("readlink_unmapped", &c, &f);
}

/* The compiler's size line: __fgets_chk reads first and aborts only when
 * the line read fills the object; the others abort on the count alone. */
static void compiler_line(void)
{
	static const char *const names[2] = {"__read_chk", "__fgets_chk"};
	static const char *const ends[2] = {"glibc's __read_chk aborts the program\n",
					    "glibc's __fgets_chk aborts the program when the line read fills it\n"};

	for (int k = 0; k < 2; k++) {
		struct rwc_call c = {.name = names[k]};
		struct rwc_finding f = {.what = "buf", .iov_index = -1, .msg_index = -1, .count = 64};
		struct rwc_fmt o;

		f.bounds.compiler_size = 8;
		rwc_fmt_init(&o, out, sizeof out);
		rwc_format_compiler(&o, 4242, &c, &f);
		out[o.len] = '\0';
		ok(strstr(out, "the compiler saw an object of 8 bytes at buf; count 64 is larger: ") &&
			   strlen(out) > strlen(ends[k]) && strcmp(out + strlen(out) - strlen(ends[k]), ends[k]) == 0,
		   "compiler's size line of %s ends '%.*s'", names[k], (int)strlen(ends[k]) - 1, ends[k]);
	}
}

int main(void)
{
	rwc_knobs.action = 0;
	read_not_writable();
	pread_offset();
	readv_unmapped();
	heap_overflow();
	global_overflow();
	stack_variable();
	stack_variable_cpp();
	syscall_count();
	getsockopt_heap();
	readlink_unmapped();
	compiler_line();
	return done_testing();
}
