/* format_object.c: what holds a reported buffer, in words (see
 * format_object.h). */
#include "config.h"

#include "report/format_object.h"

#include <string.h>

/* The array suffix " [N]..." of TYPE, outside any template argument
 * ("class unique_ptr<char []>" has none); NULL when none. */
static const char *array_dims(const char *type)
{
	int depth = 0;

	for (const char *t = type; t && *t; t++) {
		if (*t == '<' || *t == '(')
			depth++;
		else if ((*t == '>' || *t == ')') && depth > 0)
			depth--;
		else if (!depth && t[0] == ' ' && t[1] == '[')
			return t;
	}
	return NULL;
}

/* "char name[16]": the C declaration of NAME with TYPE ("char [16]"). */
static void declaration(struct rwc_fmt *o, const char *type, const char *name)
{
	const char *dims = array_dims(type);
	size_t tn = type ? strlen(type) : 0;

	if (!type) {
		rwc_fmt_str(o, name);
		return;
	}
	rwc_fmt_mem(o, type, dims ? (size_t)(dims - type) : tn);
	if (dims || !tn || type[tn - 1] != '*')
		rwc_fmt_char(o, ' ');
	rwc_fmt_str(o, name);
	if (dims)
		rwc_fmt_str(o, dims + 1);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "`char name[16]` (x.c:12) in frame #0 read_name, into `char rest[240]`" */
void rwc_fmt_variable(struct rwc_fmt *o, const struct rwc_bounds *b)
{
	rwc_fmt_char(o, '`');
	declaration(o, b->type, b->name ? b->name : "?");
	rwc_fmt_char(o, '`');
	if (b->decl_file) {
		rwc_fmt_str(o, " (");
		rwc_fmt_str(o, base_name(b->decl_file));
		rwc_fmt_char(o, ':');
		rwc_fmt_i64(o, b->decl_line);
		rwc_fmt_char(o, ')');
	}
	rwc_fmt_str(o, " in frame #");
	rwc_fmt_i64(o, b->index);
	rwc_fmt_char(o, ' ');
	rwc_fmt_str(o, b->function ? b->function : "??");
	if (b->into) {
		rwc_fmt_str(o, ", into `");
		declaration(o, b->into_type, b->into);
		rwc_fmt_char(o, '`');
	}
}

static void frame_where(struct rwc_fmt *o, const struct rwc_frame *fr)
{
	rwc_fmt_str(o, fr->function[0] ? fr->function : "??");
	if (fr->file[0]) {
		rwc_fmt_str(o, " (");
		rwc_fmt_str(o, fr->file);
		rwc_fmt_char(o, ':');
		rwc_fmt_i64(o, fr->line);
		rwc_fmt_char(o, ')');
	}
}

static void span(struct rwc_fmt *o, uintptr_t lo, uintptr_t hi)
{
	rwc_fmt_hex(o, lo);
	rwc_fmt_char(o, '-');
	rwc_fmt_hex(o, hi);
}

/* A fortified call's object where nothing but the compiler's size is
 * known: [buf, buf+size) on the stack or in a module's image. */
static void compiler_object_text(struct rwc_fmt *o, const struct rwc_finding *f)
{
	const struct rwc_bounds *b = &f->bounds;

	rwc_fmt_str(o, " is ");
	rwc_fmt_u64(o, f->v.bad_lo - b->hi);
	rwc_fmt_str(o, b->kind == RWC_HOLDER_VARIABLE ? " bytes past the end of an object of "
						     : " bytes past the end of a global object of ");
	rwc_fmt_u64(o, b->hi - b->lo);
	rwc_fmt_str(o, " bytes");
	if (b->kind == RWC_HOLDER_VARIABLE) {
		rwc_fmt_str(o, " on the caller's stack");
	} else if (b->module) {
		rwc_fmt_str(o, " in ");
		rwc_fmt_str(o, b->module);
	}
	rwc_fmt_str(o, ", ");
	span(o, b->lo, b->hi);
	rwc_fmt_char(o, '\n');
}

/* "bytes 32..127 of buf run past the global `hdr` (32 bytes) in
 * /path/module, 0x...-0x..., into `next`" */
static void global_text(struct rwc_fmt *o, const struct rwc_finding *f)
{
	const struct rwc_bounds *b = &f->bounds;
	uint64_t a = f->v.bad_lo - f->v.lo, z = f->v.bad_hi - f->v.lo - 1;

	rwc_fmt_str(o, a == z ? "byte " : "bytes ");
	rwc_fmt_u64(o, a);
	if (a != z) {
		rwc_fmt_str(o, "..");
		rwc_fmt_u64(o, z);
	}
	rwc_fmt_str(o, " of ");
	rwc_fmt_what(o, f);
	rwc_fmt_str(o, a == z ? " runs past the global `" : " run past the global `");
	rwc_fmt_str(o, b->name ? b->name : "?");
	rwc_fmt_str(o, "` (");
	rwc_fmt_u64(o, b->hi - b->lo);
	rwc_fmt_str(o, " bytes)");
	if (b->module) {
		rwc_fmt_str(o, " in ");
		rwc_fmt_str(o, b->module);
	}
	rwc_fmt_str(o, ", ");
	span(o, b->lo, b->hi);
	if (b->into) {
		rwc_fmt_str(o, ", into `");
		rwc_fmt_str(o, b->into);
		rwc_fmt_char(o, '`');
	}
	rwc_fmt_char(o, '\n');
}

/* A fortified call: the size the compiler saw, which glibc enforces. */
void rwc_format_compiler(struct rwc_fmt *o, long pid, const struct rwc_call *c, const struct rwc_finding *f)
{
	rwc_fmt_prefix(o, pid);
	rwc_fmt_str(o, "  the compiler saw an object of ");
	rwc_fmt_u64(o, f->bounds.compiler_size);
	rwc_fmt_str(o, " bytes at ");
	rwc_fmt_what(o, f);
	/* (an argument list's count is in other units: its bytes are said) */
	rwc_fmt_str(o, c->shape == RWC_SHAPE_ARGS ? "; the call's " : "; count ");
	rwc_fmt_u64(o, f->count);
	rwc_fmt_str(o, c->shape == RWC_SHAPE_ARGS ? " bytes there are more: glibc's " : " is larger: glibc's ");
	rwc_fmt_str(o, c->name);
	/* (__fgets_chk reads first: it aborts when the line filled the object) */
	rwc_fmt_str(o, strstr(c->name, "fgets") ? " aborts the program when the line read fills it\n"
						 : " aborts the program\n");
}

/* The stack frame the buffer runs past (its saved registers, or its end). */
static void frame_text(struct rwc_fmt *o, const struct rwc_finding *f, const struct rwc_frame *fr, int nfr)
{
	const struct rwc_bounds *b = &f->bounds;

	rwc_fmt_str(o, b->limit < b->hi ? " reaches the saved registers of frame #"
				      : " runs past the end of frame #");
	rwc_fmt_i64(o, b->index);
	if (b->index < nfr) {
		rwc_fmt_char(o, ' ');
		frame_where(o, &fr[b->index]);
	}
	rwc_fmt_str(o, ": the frame is ");
	span(o, b->lo, b->hi);
	rwc_fmt_str(o, " (");
	rwc_fmt_u64(o, b->hi - b->lo);
	rwc_fmt_str(o, " bytes), ");
	rwc_fmt_what(o, f);
	rwc_fmt_str(o, " at +");
	rwc_fmt_u64(o, f->v.lo - b->lo);
	if (b->limit < b->hi) {
		rwc_fmt_str(o, ", registers saved from +");
		rwc_fmt_u64(o, b->limit - b->lo);
	}
	rwc_fmt_char(o, '\n');
}

/* The named stack variable the buffer runs past. */
static void variable_text(struct rwc_fmt *o, const struct rwc_finding *f)
{
	const struct rwc_bounds *b = &f->bounds;

	rwc_fmt_str(o, " is ");
	rwc_fmt_u64(o, f->v.bad_lo - b->hi);
	rwc_fmt_str(o, " bytes past the end of the variable `");
	rwc_fmt_str(o, b->name ? b->name : "?");
	rwc_fmt_str(o, "` (");
	rwc_fmt_u64(o, b->hi - b->lo);
	rwc_fmt_str(o, " bytes, ");
	span(o, b->lo, b->hi);
	if (b->decl_file) {
		rwc_fmt_str(o, ", declared at ");
		rwc_fmt_str(o, b->decl_file);
		rwc_fmt_char(o, ':');
		rwc_fmt_i64(o, b->decl_line);
	}
	rwc_fmt_str(o, ")\n");
}

/* The block, frame, variable or global that holds the buffer (where a
 * heap block was allocated: format.c). */
void rwc_format_object(struct rwc_fmt *o, long pid, const struct rwc_finding *f,
			const struct rwc_frame *fr, int nfr)
{
	const struct rwc_bounds *b = &f->bounds;

	rwc_fmt_prefix(o, pid);
	rwc_fmt_str(o, "  ");
	if (b->kind == RWC_HOLDER_GLOBAL && b->name) {
		global_text(o, f);
		return;
	}
	rwc_fmt_what(o, f);
	rwc_fmt_char(o, '+');
	/* (where the compiler's object ended first, the frame's saved
	 * registers still start where they do) */
	rwc_fmt_u64(o, (b->kind == RWC_HOLDER_FRAME && b->limit < b->hi && b->limit > f->v.bad_lo ? b->limit : f->v.bad_lo) -
			       f->v.lo);
	if (b->kind == RWC_HOLDER_FRAME) {
		frame_text(o, f, fr, nfr);
		return;
	}
	if (!b->name && (b->kind == RWC_HOLDER_VARIABLE || b->kind == RWC_HOLDER_GLOBAL)) {
		compiler_object_text(o, f);
		return;
	}
	if (b->kind == RWC_HOLDER_VARIABLE) {
		variable_text(o, f);
		return;
	}
	rwc_fmt_str(o, " is ");
	if (b->kind == RWC_HOLDER_BLOCK && f->v.bad_lo < b->lo) { /* (ran into it from below) */
		rwc_fmt_u64(o, b->lo - f->v.bad_lo);
		rwc_fmt_str(o, " bytes before the start of a heap block of ");
	} else if (b->kind == RWC_HOLDER_FREED || f->v.bad_lo < b->hi) {
		rwc_fmt_u64(o, f->v.bad_lo - b->lo);
		rwc_fmt_str(o, b->kind == RWC_HOLDER_FREED ? " bytes inside a freed heap block of "
							   : " bytes into a heap block of ");
	} else {
		rwc_fmt_u64(o, f->v.bad_lo - b->hi);
		rwc_fmt_str(o, " bytes past the end of a heap block of ");
	}
	rwc_fmt_u64(o, b->hi - b->lo);
	rwc_fmt_str(o, " bytes");
	if (b->usable) {
		rwc_fmt_str(o, " (");
		rwc_fmt_u64(o, b->usable);
		rwc_fmt_str(o, " usable)");
	}
	rwc_fmt_str(o, ", ");
	span(o, b->lo, b->hi);
	rwc_fmt_char(o, '\n');
}
