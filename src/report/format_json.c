/* format_json.c: the JSON form of a report (see format.h): one object
 * per line, the fields DESIGN.md fixes and more.  Pure: builds into a
 * caller's buffer with fmt.h; no allocation, signal-safe. */
#include "config.h"

#include "report/format.h"
#include "base/common.h"

#include "base/knobs.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The process's arguments as the dynamic loader passes them to every
 * constructor (read, never written). */
static int rwc_json_argc RWC_START_DATA;
static char **rwc_json_argv RWC_START_DATA;

__attribute__((constructor)) static void rwc_json_keep_args(int argc, char **argv, char **envp)
{
	(void)envp;
	rwc_json_argc = argc;
	rwc_json_argv = argv;
}

static void json_hex(struct rwc_fmt *o, int *first, const char *k, uint64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_char(o, '"');
	rwc_fmt_hex(o, v);
	rwc_fmt_char(o, '"');
}

static void json_int(struct rwc_fmt *o, int *first, const char *k, int64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_i64(o, v);
}

static void json_uint(struct rwc_fmt *o, int *first, const char *k, uint64_t v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_u64(o, v);
}

static void json_str(struct rwc_fmt *o, int *first, const char *k, const char *v)
{
	rwc_fmt_json_key(o, first, k);
	rwc_fmt_json_str(o, v);
}

static void json_mapping(struct rwc_fmt *o, const struct rwc_region_desc *d, const char *kind)
{
	char p[5];
	struct rwc_fmt pf;
	int first = 1;

	rwc_fmt_init(&pf, p, sizeof p);
	rwc_format_perms(&pf, d->prot);
	rwc_fmt_char(o, '{');
	if (kind)
		json_str(o, &first, "kind", kind);
	json_hex(o, &first, "start", d->start);
	json_hex(o, &first, "end", d->end);
	json_str(o, &first, "perms", p);
	json_hex(o, &first, "offset", d->offset);
	json_str(o, &first, "path", d->path);
	rwc_fmt_char(o, '}');
}

static void json_region(struct rwc_fmt *o, const struct rwc_verdict *v)
{
	int first = 1;

	if (v->problem != RWC_BUF_UNMAPPED && v->at.valid) {
		json_mapping(o, &v->at, "mapping");
		return;
	}
	rwc_fmt_char(o, '{');
	json_str(o, &first, "kind", "gap");
	json_hex(o, &first, "start", v->prev.valid ? v->prev.end : 0);
	if (v->next.valid)
		json_hex(o, &first, "end", v->next.start);
	if (v->prev.valid) {
		rwc_fmt_json_key(o, &first, "below");
		json_mapping(o, &v->prev, NULL);
	}
	if (v->next.valid) {
		rwc_fmt_json_key(o, &first, "above");
		json_mapping(o, &v->next, NULL);
	}
	rwc_fmt_char(o, '}');
}

static void json_frame(struct rwc_fmt *o, const struct rwc_frame *fr)
{
	int first = 1;

	rwc_fmt_char(o, '{');
	json_hex(o, &first, "pc", fr->pc);
	json_str(o, &first, "module", fr->module);
	if (fr->module[0]) /* the same in every process of the module */
		json_hex(o, &first, "module_offset", fr->module_off);
	if (fr->function[0])
		json_str(o, &first, "function", fr->function);
	if (fr->file[0]) {
		json_str(o, &first, "file", fr->file);
		json_int(o, &first, "line", fr->line);
	}
	rwc_fmt_char(o, '}');
}

static void json_frames(struct rwc_fmt *o, const struct rwc_frame *fr, int nfr)
{
	rwc_fmt_char(o, '[');
	for (int i = 0; i < nfr; i++) {
		if (i)
			rwc_fmt_char(o, ',');
		json_frame(o, &fr[i]);
	}
	rwc_fmt_char(o, ']');
}

/* What every named object ends with: its range, what the overrun
 * reaches, the compiler's size, and the closing brace. */
static void json_object_end(struct rwc_fmt *o, int *first, const struct rwc_bounds *b)
{
	json_hex(o, first, "start", b->lo);
	json_hex(o, first, "end", b->hi);
	if (b->into)
		json_str(o, first, "into", b->into);
	if (b->compiler_size)
		json_uint(o, first, "compiler_size", b->compiler_size);
	rwc_fmt_char(o, '}');
}

/* The global object holding the buffer (after the region's '{'). */
static void json_global(struct rwc_fmt *o, const struct rwc_bounds *b)
{
	int first = 1;

	json_str(o, &first, "kind", "global");
	if (b->name)
		json_str(o, &first, "name", b->name);
	json_uint(o, &first, "size", b->hi - b->lo);
	if (b->module)
		json_str(o, &first, "module", b->module);
	json_object_end(o, &first, b);
}

/* The stack variable holding the buffer: the object after '{'. */
static void json_variable(struct rwc_fmt *o, const struct rwc_bounds *b)
{
	int first = 1;

	json_str(o, &first, "kind", "stack-variable");
	json_str(o, &first, "name", b->name ? b->name : "?");
	if (b->type)
		json_str(o, &first, "type", b->type);
	json_uint(o, &first, "size", b->hi - b->lo);
	if (b->decl_file) {
		json_str(o, &first, "decl_file", b->decl_file);
		json_int(o, &first, "decl_line", b->decl_line);
	}
	json_int(o, &first, "frame", b->index);
	if (b->function)
		json_str(o, &first, "function", b->function);
	json_object_end(o, &first, b);
}

/* The heap block or stack frame holding the buffer. */
static void json_bounds(struct rwc_fmt *o, const struct rwc_finding *f)
{
	const struct rwc_bounds *b = &f->bounds;
	int first = 1;

	rwc_fmt_char(o, '{');
	if (b->kind == RWC_HOLDER_GLOBAL && b->name) {
		json_global(o, b);
		return;
	}
	if (b->kind == RWC_HOLDER_VARIABLE && b->name) {
		json_variable(o, b);
		return;
	}
	json_str(o, &first, "kind", b->kind == RWC_HOLDER_FRAME      ? "stack-frame"
				    : b->kind == RWC_HOLDER_VARIABLE ? "stack-variable"
				    : b->kind == RWC_HOLDER_GLOBAL   ? "global"
				    : b->kind == RWC_HOLDER_FREED    ? "freed-heap-block"
								     : "heap-block");
	json_hex(o, &first, "start", b->lo);
	json_hex(o, &first, "end", b->hi);
	json_uint(o, &first, "size", b->hi - b->lo);
	if ((b->kind == RWC_HOLDER_BLOCK || b->kind == RWC_HOLDER_FREED) && b->usable)
		json_uint(o, &first, "usable", b->usable);
	if (b->kind == RWC_HOLDER_GLOBAL && b->module)
		json_str(o, &first, "module", b->module);
	if (b->compiler_size)
		json_uint(o, &first, "compiler_size", b->compiler_size);
	if (b->kind == RWC_HOLDER_FRAME) {
		json_hex(o, &first, "saved_from", b->limit);
		json_int(o, &first, "frame", b->index);
	} else {
		if (f->origin) {
			rwc_fmt_json_key(o, &first, "allocated_at");
			json_frames(o, f->origin, f->norigin);
		}
		if (b->kind == RWC_HOLDER_FREED && f->freed_at) {
			rwc_fmt_json_key(o, &first, "freed_at");
			json_frames(o, f->freed_at, f->nfreed_at);
		}
		if (b->kind == RWC_HOLDER_FREED && b->freed_ago)
			json_uint(o, &first, "freed_ago", b->freed_ago);
	}
	rwc_fmt_char(o, '}');
}


/* Who made the call: "tid", "exe" (readlink /proc/self/exe) and "argv"
 * (at most 16 arguments of at most 128 bytes each; "..." when cut).
 * Only for this process: a report formatted for another pid (the golden
 * tests) has none of them.  errno is kept. */
static void json_identity(struct rwc_fmt *o, int *first, long pid)
{
	char exe[512];
	int e = errno;
	ssize_t n;

	if (pid != (long)getpid())
		return;
	json_int(o, first, "tid", gettid());
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		json_str(o, first, "exe", exe);
	}
	errno = e;
	if (!rwc_json_argv)
		return;
	rwc_fmt_json_key(o, first, "argv");
	rwc_fmt_char(o, '[');
	for (int i = 0; i < rwc_json_argc && rwc_json_argv[i]; i++) {
		char arg[132];
		size_t len = strnlen(rwc_json_argv[i], 129);

		if (i)
			rwc_fmt_char(o, ',');
		if (i == 16) {
			rwc_fmt_str(o, "\"...\"");
			break;
		}
		memcpy(arg, rwc_json_argv[i], len > 128 ? 128 : len);
		strcpy(arg + (len > 128 ? 128 : len), len > 128 ? "..." : "");
		rwc_fmt_json_str(o, arg);
	}
	rwc_fmt_char(o, ']');
}

/* The "bad" bytes of a memory or bounds problem and the "region" they
 * are in (a mapping, or the object they run past). */
static void json_bad(struct rwc_fmt *o, int *first, const struct rwc_finding *f)
{
	int bf = 1;

	rwc_fmt_json_key(o, first, "bad");
	rwc_fmt_char(o, '{');
	json_uint(o, &bf, "first", f->v.bad_lo - f->v.lo);
	json_uint(o, &bf, "last", f->v.bad_hi - f->v.lo - 1);
	json_hex(o, &bf, "start", f->v.bad_lo);
	json_hex(o, &bf, "end", f->v.bad_hi);
	rwc_fmt_char(o, '}');
	rwc_fmt_json_key(o, first, "region");
	if (rwc_is_memory_problem(f))
		json_region(o, &f->v);
	else
		json_bounds(o, f);
}

void rwc_format_json(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr,
		     const char *text, const char *supp, uint64_t site)
{
	static const char *const actions[] = {"report", "efault", "abort"};
	char msg[512];
	struct rwc_fmt m;
	int first = 1;

	rwc_fmt_init(&m, msg, sizeof msg);
	rwc_format_message(&m, c, f);
	rwc_fmt_char(o, '{');
	json_str(o, &first, "call", c->name);
	if (c->sysname)
		json_str(o, &first, "syscall", c->sysname);
	json_str(o, &first, "problem", rwc_problem_name(f->problem));
	json_int(o, &first, "pid", pid);
	json_identity(o, &first, pid);
	if (!c->no_fd)
		json_int(o, &first, "fd", c->shape == RWC_SHAPE_PVM || c->stream ? -1 : c->fd);
	if (c->shape == RWC_SHAPE_PVM)
		json_int(o, &first, "target_pid", c->fd);
	json_hex(o, &first, "buf", (uintptr_t)f->buf);
	json_uint(o, &first, "count", f->count);
	if (c->stream)
		json_hex(o, &first, "stream", (uintptr_t)c->stream);
	if (c->shape == RWC_SHAPE_XFER)
		json_int(o, &first, "fd_out", c->fd2);
	if (c->has_offset)
		json_int(o, &first, "offset", c->offset);
	if (f->offset_what)
		json_int(o, &first, "offset", f->offset);
	if (f->msg_index >= 0)
		json_int(o, &first, "msg_index", f->msg_index);
	if (f->iov_index >= 0)
		json_int(o, &first, "iov_index", f->iov_index);
	if (c->nargs)
		json_str(o, &first, "arg", f->what);
	else if (c->shape != RWC_SHAPE_BUF)
		json_str(o, &first, "what", f->what);
	json_str(o, &first, "message", msg);
	if (rwc_is_memory_problem(f) || rwc_is_bounds_problem(f))
		json_bad(o, &first, f);
	json_str(o, &first, "action", actions[rwc_knobs.action]);
	json_hex(o, &first, "caller", (uintptr_t)c->caller);
	if (site)
		json_hex(o, &first, "site", site);
	rwc_fmt_json_key(o, &first, "frames");
	json_frames(o, fr, nfr);
	if (text)
		json_str(o, &first, "text", text);
	if (supp)
		json_str(o, &first, "suppression", supp);
	rwc_fmt_str(o, "}\n");
}
