/* cfi.c: the .eh_frame interpreter (see cfi.h).  Pure: reads only the
 * bytes it is given, allocates nothing, async-signal-safe. */
#include "config.h"

#include "frames/cfi.h"

#include <string.h>

#include "frames/cfiread.h"

static int allowed(const struct rwc_cfi_mem *m, uintptr_t a, size_t n)
{
	return a >= m->lo && a <= m->hi && m->hi - a >= n && (!m->ok || m->ok(a, n));
}

uintptr_t rwc_cfi_search(const struct rwc_cfi_mem *m, uintptr_t hdr, uintptr_t pc)
{
	struct rd r = {hdr, m->hi, 0};
	uint8_t version, ptr_enc, count_enc, table_enc;
	uintptr_t count, table, lo = 0, hi;
	int32_t e[2];

	if (!allowed(m, hdr, 4))
		return 0;
	version = u8(&r), ptr_enc = u8(&r), count_enc = u8(&r), table_enc = u8(&r);
	/* The table GNU ld, gold and lld write: pairs of datarel sdata4. */
	if (version != 1 || table_enc != 0x3b || count_enc == 0xff)
		return 0;
	encoded(&r, ptr_enc, hdr);
	count = encoded(&r, count_enc, hdr);
	table = r.p;
	if (r.bad || !count || count > (m->hi - table) / 8 || !allowed(m, table, count * 8))
		return 0;
	hi = count; /* the answer is the last entry in [lo, hi) at or below pc */
	while (hi - lo > 1) {
		uintptr_t mid = lo + (hi - lo) / 2;

		memcpy(e, (const void *)(table + mid * 8), 4);
		if (hdr + (uintptr_t)(intptr_t)e[0] <= pc)
			lo = mid;
		else
			hi = mid;
	}
	memcpy(e, (const void *)(table + lo * 8), 8);
	if (hdr + (uintptr_t)(intptr_t)e[0] > pc)
		return 0;
	return hdr + (uintptr_t)(intptr_t)e[1];
}

/* One CIE or FDE: its extent [*start, *end) after the length field, the
 * length read at A.  0: malformed, or the terminator. */
static int entry(const struct rwc_cfi_mem *m, uintptr_t a, uintptr_t *body, uintptr_t *end)
{
	struct rd r = {a, m->hi, 0};
	uint64_t len;
	uint32_t l32;

	if (!allowed(m, a, 4))
		return 0;
	take(&r, &l32, 4);
	len = l32;
	if (l32 == 0xffffffffu) {
		if (!allowed(m, a, 12))
			return 0;
		take(&r, &len, 8);
	}
	if (r.bad || len < 4 || len > m->hi - r.p || !allowed(m, r.p, (size_t)len))
		return 0;
	*body = r.p;
	*end = r.p + (uintptr_t)len;
	return 1;
}

/* What a CIE says. */
struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint8_t fde_enc;
	int has_z, signal;
	uintptr_t insns, end;
};

static int parse_cie(const struct rwc_cfi_mem *m, uintptr_t a, struct cie *c)
{
	uintptr_t body, end;
	struct rd r;
	char aug[8];
	uint8_t version;
	uint32_t id;
	size_t na = 0;

	if (!entry(m, a, &body, &end))
		return 0;
	r = (struct rd){body, end, 0};
	take(&r, &id, 4);
	version = u8(&r);
	if (id != 0 || (version != 1 && version != 3))
		return 0;
	do {
		if (na == sizeof aug)
			return 0;
		aug[na] = (char)u8(&r);
	} while (!r.bad && aug[na++]);
	if (aug[0] && aug[0] != 'z')
		return 0; /* without 'z' its data cannot be skipped */
	c->code_align = uleb(&r);
	c->data_align = sleb(&r);
	if ((version == 1 ? u8(&r) : uleb(&r)) != RWC_CFI_RA)
		return 0;
	c->fde_enc = 0, c->signal = 0, c->has_z = aug[0] == 'z';
	if (c->has_z) {
		uint64_t alen = uleb(&r);
		uintptr_t adata = r.p;

		if (r.bad || alen > end - r.p)
			return 0;
		for (size_t i = 1; aug[i]; i++) {
			if (aug[i] == 'R')
				c->fde_enc = u8(&r);
			else if (aug[i] == 'P')
				encoded(&r, u8(&r) & 0x7f, 0); /* the personality: skipped */
			else if (aug[i] == 'L')
				u8(&r);
			else if (aug[i] == 'S')
				c->signal = 1;
			else
				break; /* the rest is skipped by its length */
		}
		r.p = adata + (uintptr_t)alen;
	}
	c->insns = r.p;
	c->end = end;
	return !r.bad;
}

/* Nested DW_CFA_remember_state: compilers nest one deep; deeper, the
 * row is not known (no verdict).  Each row is ~190 bytes of a stack that
 * may be a signal handler's small sigaltstack. */
#define STATES 2

/* The interpreter's state: the row, the row after the CIE (restore), the
 * remembered rows. */
struct run {
	struct rwc_cfi_row row, init, saved[STATES];
	int nsaved;
	uintptr_t loc;
};

/* V times the CIE's data alignment F, wrapping (malformed input may
 * overflow; the row is then merely wrong, never undefined). */
static int64_t scaled(uint64_t v, int64_t f)
{
	return (int64_t)(v * (uint64_t)f);
}

static void set_rule(struct rwc_cfi_row *w, uint64_t reg, enum rwc_cfi_rule rule, int64_t off)
{
	if (reg < RWC_CFI_NREGS) {
		w->rule[reg] = (unsigned char)rule;
		w->off[reg] = off;
	}
}

static void restore(struct run *x, uint64_t reg)
{
	if (reg < RWC_CFI_NREGS)
		set_rule(&x->row, reg, x->init.rule[reg], x->init.off[reg]);
}

/* Moves the location by D code units, or stops when that passes PC. */
static void advance(struct run *x, const struct cie *c, uint64_t d, uintptr_t pc, int *stop)
{
	if ((c->code_align && d > (UINTPTR_MAX - x->loc) / c->code_align) || x->loc + d * c->code_align > pc)
		*stop = 1;
	else
		x->loc += d * c->code_align;
}

/* The location operations: 1 done, -1 not one of them. */
static int op_loc(struct run *x, struct rd *r, const struct cie *c, uint8_t op, uintptr_t pc, int *stop)
{
	uint64_t d;

	switch (op) {
	case 0x01: /* set_loc */
		d = encoded(r, c->fde_enc, 0);
		if (d > pc)
			*stop = 1;
		else
			x->loc = d;
		return 1;
	case 0x02: /* advance_loc1 */
		d = u8(r);
		break;
	case 0x03: { /* advance_loc2 */
		uint16_t v;
		take(r, &v, 2);
		d = v;
		break;
	}
	case 0x04: { /* advance_loc4 */
		uint32_t v;
		take(r, &v, 4);
		d = v;
		break;
	}
	default:
		return -1;
	}
	advance(x, c, d, pc, stop);
	return 1;
}

/* Is OP one of op_reg's (it reads its register operand first)? */
static int is_reg_op(uint8_t op)
{
	return (op >= 0x05 && op <= 0x09) || op == 0x11 || op == 0x14 || op == 0x15 || op == 0x2f;
}

/* The register operations (is_reg_op). */
static void op_reg(struct run *x, struct rd *r, const struct cie *c, uint8_t op)
{
	uint64_t reg = uleb(r), d;

	switch (op) {
	case 0x05: /* offset_extended */
		set_rule(&x->row, reg, RWC_CFI_OFFSET, scaled(uleb(r), c->data_align));
		break;
	case 0x11: /* offset_extended_sf */
		set_rule(&x->row, reg, RWC_CFI_OFFSET, scaled((uint64_t)sleb(r), c->data_align));
		break;
	case 0x2f: /* GNU_negative_offset_extended */
		set_rule(&x->row, reg, RWC_CFI_OFFSET, scaled(-uleb(r), c->data_align));
		break;
	case 0x14: /* val_offset */
		set_rule(&x->row, reg, RWC_CFI_VAL_OFFSET, scaled(uleb(r), c->data_align));
		break;
	case 0x15: /* val_offset_sf */
		set_rule(&x->row, reg, RWC_CFI_VAL_OFFSET, scaled((uint64_t)sleb(r), c->data_align));
		break;
	case 0x06: /* restore_extended */
		restore(x, reg);
		break;
	case 0x07: /* undefined */
		set_rule(&x->row, reg, RWC_CFI_UNDEF, 0);
		break;
	case 0x08: /* same_value */
		set_rule(&x->row, reg, RWC_CFI_SAME, 0);
		break;
	case 0x09: /* register */
		d = uleb(r);
		set_rule(&x->row, reg, d < RWC_CFI_NREGS ? RWC_CFI_REGISTER : RWC_CFI_UNKNOWN, (int64_t)d);
		break;
	default:
		break;
	}
}

/* The CFA and state operations: 1 done, 0 bad or unsupported. */
static int op_cfa(struct run *x, struct rd *r, const struct cie *c, uint8_t op)
{
	uint64_t reg;

	switch (op) {
	case 0x00: /* nop */
		return 1;
	case 0x0a: /* remember_state */
		if (x->nsaved == STATES)
			return 0;
		x->saved[x->nsaved++] = x->row;
		return 1;
	case 0x0b: /* restore_state: the CFA too (GCC's epilogues rely on it) */
		if (x->nsaved == 0)
			return 0;
		x->row = x->saved[--x->nsaved];
		return 1;
	case 0x0c: /* def_cfa */
		reg = uleb(r);
		x->row.cfa_reg = reg < RWC_CFI_NREGS ? (int)reg : -1;
		x->row.cfa_off = (int64_t)uleb(r);
		return 1;
	case 0x12: /* def_cfa_sf */
		reg = uleb(r);
		x->row.cfa_reg = reg < RWC_CFI_NREGS ? (int)reg : -1;
		x->row.cfa_off = scaled((uint64_t)sleb(r), c->data_align);
		return 1;
	case 0x0d: /* def_cfa_register */
		reg = uleb(r);
		x->row.cfa_reg = reg < RWC_CFI_NREGS && x->row.cfa_reg >= 0 ? (int)reg : -1;
		return 1;
	case 0x0e: /* def_cfa_offset */
		x->row.cfa_off = (int64_t)uleb(r);
		return 1;
	case 0x13: /* def_cfa_offset_sf */
		x->row.cfa_off = scaled((uint64_t)sleb(r), c->data_align);
		return 1;
	case 0x0f: /* def_cfa_expression */
		x->row.cfa_reg = -1;
		skip(r, uleb(r));
		return 1;
	case 0x10: /* expression */
	case 0x16: /* val_expression */
		reg = uleb(r);
		set_rule(&x->row, reg, RWC_CFI_UNKNOWN, 0);
		skip(r, uleb(r));
		return 1;
	case 0x2e: /* GNU_args_size */
		uleb(r);
		return 1;
	default:
		return 0;
	}
}

/* Runs [a, end) up to PC: 1, or 0 on a bad or unknown instruction. */
static int run_insns(struct run *x, const struct cie *c, uintptr_t a, uintptr_t end, uintptr_t pc)
{
	struct rd r = {a, end, 0};
	int stop = 0;

	while (!stop && !r.bad && r.p < end) {
		uint8_t op = u8(&r), low = op & 0x3f;

		if ((op & 0xc0) == 0x40) { /* advance_loc */
			advance(x, c, low, pc, &stop);
		} else if ((op & 0xc0) == 0x80) { /* offset */
			set_rule(&x->row, low, RWC_CFI_OFFSET, scaled(uleb(&r), c->data_align));
		} else if ((op & 0xc0) == 0xc0) { /* restore */
			restore(x, low);
		} else if (is_reg_op(op)) {
			op_reg(x, &r, c, op);
		} else if (op_loc(x, &r, c, op, pc, &stop) < 0 && !op_cfa(x, &r, c, op)) {
			return 0;
		}
	}
	return !r.bad && r.p <= end;
}

int rwc_cfi_row(const struct rwc_cfi_mem *m, uintptr_t fde, uintptr_t pc, struct rwc_cfi_row *row)
{
	struct run x;
	uintptr_t body, end, cie_ptr, begin, range;
	struct cie c;
	struct rd r;
	uint32_t id;

	if (!entry(m, fde, &body, &end))
		return 0;
	r = (struct rd){body, end, 0};
	take(&r, &id, 4);
	if (r.bad || id == 0 || id > body - m->lo)
		return 0; /* a CIE, or its CIE before the memory */
	cie_ptr = body - id;
	if (!parse_cie(m, cie_ptr, &c))
		return 0;
	begin = encoded(&r, c.fde_enc, 0);
	range = encoded(&r, c.fde_enc & 0x0f, 0);
	if (c.has_z)
		skip(&r, uleb(&r));
	if (r.bad || r.p > end || pc < begin || pc - begin >= range)
		return 0;
	memset(&x.row, 0, sizeof x.row); /* (saved[] is written before it is read) */
	x.nsaved = 0;
	x.row.cfa_reg = -1;
	x.init = x.row; /* a restore among the CIE's own instructions */
	x.loc = begin;
	if (!run_insns(&x, &c, c.insns, c.end, pc))
		return 0;
	x.init = x.row;
	if (!run_insns(&x, &c, r.p, end, pc))
		return 0;
	*row = x.row;
	row->signal = c.signal;
	return 1;
}
