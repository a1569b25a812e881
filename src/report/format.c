/* format.c: the text form of a report, and the message both forms share
 * (see format.h; the JSON form is format_json.c).  Pure:
 * builds into a caller's buffer with fmt.h; no allocation, signal-safe. */
#include "config.h"

#include "report/format.h"
#include "report/format_object.h"

#include <limits.h>
#include <string.h>

#include "base/knobs.h"

/* "buf", "iov[2]", "the iovec array", ... */
void rwc_fmt_what(struct rwc_fmt *o, const struct rwc_finding *f)
{
	if (f->msg_index >= 0) {
		rwc_fmt_str(o, "msgvec[");
		rwc_fmt_i64(o, f->msg_index);
		rwc_fmt_str(o, "] ");
	}
	rwc_fmt_str(o, f->what);
	if (f->iov_index >= 0) {
		rwc_fmt_char(o, '[');
		rwc_fmt_i64(o, f->iov_index);
		rwc_fmt_char(o, ']');
	}
}

static const char *bounds_words(const struct rwc_finding *f)
{
	if (f->bounds.compiler_size && f->v.bad_lo < f->bounds.hi)
		return "past the object the compiler saw"; /* inside its holder */
	switch (f->bounds.kind) {
	case RWC_HOLDER_BLOCK:
		return f->v.bad_lo < f->bounds.lo ? "before the start of a heap block" : "past the end of its heap block";
	case RWC_HOLDER_VARIABLE:
		return "past the end of its stack object";
	case RWC_HOLDER_GLOBAL:
		return "past the end of their global object";
	case RWC_HOLDER_FREED:
		return "in a freed heap block";
	default:
		return "past its stack frame (saved registers, return address, callers' frames)";
	}
}




/* "offset " or, for an offset pointer, "*off_in = " */
static void offset_name(struct rwc_fmt *o, const struct rwc_finding *f)
{
	if (f->offset_what) {
		rwc_fmt_char(o, '*');
		rwc_fmt_str(o, f->offset_what);
		rwc_fmt_str(o, " = ");
	} else {
		rwc_fmt_str(o, "offset ");
	}
}

/* The message of a problem with the bytes of a buffer: which bytes, and
 * what is wrong with them (their mapping, or the object they run past). */
static void memory_message(struct rwc_fmt *o, const struct rwc_call *c, const struct rwc_finding *f)
{
	uint64_t a = f->v.bad_lo - f->v.lo, b = f->v.bad_hi - f->v.lo - 1;
	int one = (a == b);

	rwc_fmt_str(o, one ? "byte " : "bytes ");
	rwc_fmt_u64(o, a);
	if (!one) {
		rwc_fmt_str(o, "..");
		rwc_fmt_u64(o, b);
	}
	rwc_fmt_str(o, " of ");
	rwc_fmt_what(o, f);
	if (c->nargs && f->buf != c->buf) { /* an argument of the list: its capacity */
		rwc_fmt_str(o, " (");
		rwc_fmt_u64(o, f->count);
		rwc_fmt_str(o, " bytes)");
	}
	if (rwc_is_bounds_problem(f) && f->bounds.kind == RWC_HOLDER_VARIABLE && f->bounds.name) {
		rwc_fmt_str(o, one ? " runs past " : " run past ");
		rwc_fmt_variable(o, &f->bounds);
		return;
	}
	rwc_fmt_str(o, one ? " is " : " are ");
	if (rwc_is_bounds_problem(f)) {
		rwc_fmt_str(o, bounds_words(f));
		return;
	}
	rwc_fmt_str(o, f->v.problem == RWC_BUF_UNMAPPED ? "not mapped"
		       : f->v.problem == RWC_BUF_NOT_WRITABLE ? "not writable"
		       : "not readable");
}

void rwc_format_message(struct rwc_fmt *o, const struct rwc_call *c, const struct rwc_finding *f)
{
	if (rwc_is_memory_problem(f) || rwc_is_bounds_problem(f)) {
		memory_message(o, c, f);
		return;
	}
	switch (f->problem) {
	case RWC_OFFSET_NEGATIVE:
		offset_name(o, f);
		rwc_fmt_i64(o, f->offset_what ? f->offset : c->offset);
		rwc_fmt_str(o, " is negative");
		break;
	case RWC_OFFSET_OVERFLOW:
		offset_name(o, f);
		rwc_fmt_i64(o, f->offset_what ? f->offset : c->offset);
		rwc_fmt_str(o, " + count ");
		rwc_fmt_u64(o, c->shape == RWC_SHAPE_IOV ? f->total : c->count);
		rwc_fmt_str(o, " overflows a 64-bit file offset");
		break;
	case RWC_COUNT_TOO_LARGE:
		if (c->stream && c->count == SIZE_MAX) {
			rwc_fmt_str(o, "size * nmemb overflows size_t");
			break;
		}
		rwc_fmt_str(o, "count ");
		rwc_fmt_u64(o, c->count);
		rwc_fmt_str(o, " exceeds SSIZE_MAX");
		break;
	case RWC_IOVCNT_INVALID:
		rwc_fmt_str(o, f->buf == c->riov && c->riov ? "riovcnt " : "iovcnt ");
		rwc_fmt_i64(o, (int64_t)f->count);
		rwc_fmt_str(o, " is outside 0..");
		rwc_fmt_u64(o, IOV_MAX);
		break;
	case RWC_IOV_LEN_OVERFLOW:
		rwc_fmt_str(o, "the iovec lengths add up past SSIZE_MAX");
		break;
	default:
		rwc_fmt_str(o, rwc_problem_name(f->problem));
		break;
	}
}

void rwc_format_perms(struct rwc_fmt *o, unsigned p)
{
	char s[5] = {(p & RWC_PROT_R) ? 'r' : '-', (p & RWC_PROT_W) ? 'w' : '-',
		     (p & RWC_PROT_X) ? 'x' : '-', (p & RWC_PROT_SHARED) ? 's' : 'p', 0};
	rwc_fmt_str(o, s);
}

static void region_text(struct rwc_fmt *o, const struct rwc_region_desc *d)
{
	rwc_fmt_hex(o, d->start);
	rwc_fmt_char(o, '-');
	rwc_fmt_hex(o, d->end);
	rwc_fmt_char(o, ' ');
	rwc_format_perms(o, d->prot);
	if (d->path[0]) {
		rwc_fmt_char(o, ' ');
		rwc_fmt_str(o, d->path);
	}
}

static void arg_int(struct rwc_fmt *o, const char *name, int64_t v)
{
	rwc_fmt_str(o, name);
	rwc_fmt_char(o, '=');
	rwc_fmt_i64(o, v);
}

static void arg_ptr(struct rwc_fmt *o, const char *name, const void *p)
{
	rwc_fmt_str(o, ", ");
	rwc_fmt_str(o, name);
	rwc_fmt_char(o, '=');
	rwc_fmt_hex(o, (uintptr_t)p);
}

static void arg_count(struct rwc_fmt *o, const char *name, uint64_t v)
{
	rwc_fmt_str(o, ", ");
	rwc_fmt_str(o, name);
	rwc_fmt_char(o, '=');
	rwc_fmt_u64(o, v);
}

/* The argument list (common.h): pointers and the integers shown, in the
 * call's order (an in/out length, checked first, after its buffer); the
 * first without a comma when the call has no descriptor. */
static void args_text(struct rwc_fmt *o, const struct rwc_call *c)
{
	for (unsigned k = 0; k < c->nargs; k++) {
		unsigned i = k;
		const struct rwc_arg *a;

		if (k + 1 < c->nargs && c->args[k + 1].lenp && c->args[k + 1].lenp == c->args[k].p)
			i = k + 1; /* the buffer first, then its length */
		else if (k && c->args[k].lenp && c->args[k].lenp == c->args[k - 1].p)
			i = k - 1;
		a = &c->args[i];
		if (k || !c->no_fd || c->shape != RWC_SHAPE_ARGS)
			rwc_fmt_str(o, ", ");
		rwc_fmt_str(o, a->name);
		rwc_fmt_char(o, '=');
		if (a->kind == RWC_ARG_INT)
			rwc_fmt_i64(o, (int64_t)a->n);
		else
			rwc_fmt_hex(o, (uintptr_t)a->p);
	}
}

static void call_text(struct rwc_fmt *o, const struct rwc_call *c)
{
	rwc_fmt_str(o, c->name);
	rwc_fmt_char(o, '(');
	if (c->sysname) {
		rwc_fmt_str(o, "SYS_");
		rwc_fmt_str(o, c->sysname);
		rwc_fmt_str(o, ", ");
	}
	if (c->stream) {
		rwc_fmt_str(o, "stream=");
		rwc_fmt_hex(o, (uintptr_t)c->stream);
	} else if (c->shape == RWC_SHAPE_PVM) {
		arg_int(o, "pid", c->fd);
	} else if (c->shape == RWC_SHAPE_XFER) {
		arg_int(o, "fd_in", c->fd);
		rwc_fmt_str(o, ", ");
		arg_int(o, "fd_out", c->fd2);
	} else if (!c->no_fd) {
		arg_int(o, "fd", c->fd);
	}
	switch (c->shape) {
	case RWC_SHAPE_ARGS:
		break;
	case RWC_SHAPE_BUF:
		arg_ptr(o, "buf", c->buf);
		arg_count(o, "count", c->count);
		break;
	case RWC_SHAPE_IOV:
		arg_ptr(o, "iov", c->iov);
		rwc_fmt_str(o, ", ");
		arg_int(o, "iovcnt", c->iovcnt); /* (an int: -1 as -1) */
		break;
	case RWC_SHAPE_MSG:
		arg_ptr(o, "msg", c->msg);
		break;
	case RWC_SHAPE_MMSG:
		arg_ptr(o, "msgvec", c->msg);
		arg_count(o, "vlen", (uint64_t)(unsigned)c->iovcnt);
		break;
	case RWC_SHAPE_XFER:
		for (int k = 0; k < 2; k++)
			if (c->offname[k])
				arg_ptr(o, c->offname[k], c->offp[k]);
		arg_count(o, "count", c->count);
		break;
	case RWC_SHAPE_PVM:
		arg_ptr(o, "local_iov", c->iov);
		arg_count(o, "liovcnt", (uint64_t)c->iovcnt);
		arg_ptr(o, "remote_iov", c->riov);
		arg_count(o, "riovcnt", (uint64_t)c->riovcnt);
		break;
	}
	if (c->has_offset) {
		rwc_fmt_str(o, ", ");
		arg_int(o, "offset", c->offset);
	}
	args_text(o, c);
	rwc_fmt_char(o, ')');
}

void rwc_fmt_prefix(struct rwc_fmt *o, long pid)
{
	rwc_fmt_str(o, "rwcheck[");
	rwc_fmt_i64(o, pid);
	rwc_fmt_str(o, "]: ");
}

/* "    #i PC in FUNCTION FILE:LINE" per frame (or the module and offset). */
static void frame_lines(struct rwc_fmt *o, long pid, const struct rwc_frame *fr, int nfr)
{
	for (int i = 0; i < nfr; i++) {
		rwc_fmt_prefix(o, pid);
		rwc_fmt_str(o, "    #");
		rwc_fmt_i64(o, i);
		rwc_fmt_char(o, ' ');
		rwc_fmt_hex(o, fr[i].pc);
		rwc_fmt_str(o, " in ");
		rwc_fmt_str(o, fr[i].function[0] ? fr[i].function : "??");
		if (fr[i].file[0]) {
			rwc_fmt_char(o, ' ');
			rwc_fmt_str(o, fr[i].file);
			rwc_fmt_char(o, ':');
			rwc_fmt_i64(o, fr[i].line);
		} else if (fr[i].module[0]) {
			rwc_fmt_str(o, " (");
			rwc_fmt_str(o, fr[i].module);
			rwc_fmt_char(o, '+');
			rwc_fmt_hex(o, fr[i].module_off);
			rwc_fmt_char(o, ')');
		}
		rwc_fmt_char(o, '\n');
	}
}






/* Where the block was allocated and, freed, where it was freed and how
 * many frees ago (the quarantine's count). */
static void sites_text(struct rwc_fmt *o, long pid, const struct rwc_finding *f)
{
	if (f->origin) {
		rwc_fmt_prefix(o, pid);
		rwc_fmt_str(o, "  the block was allocated at:\n");
		frame_lines(o, pid, f->origin, f->norigin);
	}
	if (f->bounds.kind != RWC_HOLDER_FREED || (!f->freed_at && !f->bounds.freed_ago))
		return;
	rwc_fmt_prefix(o, pid);
	rwc_fmt_str(o, f->freed_at ? "  the block was freed at" : "  the block was freed");
	if (f->bounds.freed_ago) {
		rwc_fmt_str(o, " (");
		rwc_fmt_u64(o, f->bounds.freed_ago);
		rwc_fmt_str(o, f->bounds.freed_ago == 1 ? " free ago)" : " frees ago)");
	}
	rwc_fmt_str(o, f->freed_at ? ":\n" : "\n");
	if (f->freed_at)
		frame_lines(o, pid, f->freed_at, f->nfreed_at);
}


void rwc_format_text(struct rwc_fmt *o, long pid, const struct rwc_call *c,
		     const struct rwc_finding *f, const struct rwc_frame *fr, int nfr)
{
	rwc_fmt_prefix(o, pid);
	call_text(o, c);
	rwc_fmt_str(o, ": ");
	rwc_format_message(o, c, f);
	rwc_fmt_str(o, " [");
	rwc_fmt_str(o, rwc_problem_name(f->problem));
	rwc_fmt_str(o, "]\n");
	if (rwc_is_memory_problem(f)) {
		const struct rwc_verdict *v = &f->v;

		rwc_fmt_prefix(o, pid);
		rwc_fmt_str(o, "  ");
		rwc_fmt_what(o, f);
		rwc_fmt_char(o, '+');
		rwc_fmt_u64(o, v->bad_lo - v->lo);
		if (v->problem != RWC_BUF_UNMAPPED && v->at.valid) {
			rwc_fmt_str(o, " is inside ");
			region_text(o, &v->at);
		} else if (v->prev.valid) {
			rwc_fmt_str(o, " is ");
			rwc_fmt_u64(o, v->bad_lo - v->prev.end);
			rwc_fmt_str(o, " bytes past the end of ");
			region_text(o, &v->prev);
		} else if (v->next.valid) {
			rwc_fmt_str(o, " is ");
			rwc_fmt_u64(o, v->next.start - v->bad_lo);
			rwc_fmt_str(o, " bytes before the start of ");
			region_text(o, &v->next);
		} else {
			rwc_fmt_str(o, " is not in any mapping");
		}
		rwc_fmt_char(o, '\n');
	}
	if (rwc_is_bounds_problem(f))
		rwc_format_object(o, pid, f, fr, nfr);
	if (rwc_is_bounds_problem(f) && f->bounds.compiler_size)
		rwc_format_compiler(o, pid, c, f);
	frame_lines(o, pid, fr, nfr);
	if (rwc_is_bounds_problem(f))
		sites_text(o, pid, f);
}
