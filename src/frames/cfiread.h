/* cfiread.h: the bounded byte reader of the CFI interpreter (cfi.c):
 * fixed-size values, LEB128 numbers and DW_EH_PE pointer encodings, each
 * read only inside [p, end); a read past it sets bad and yields 0.  Pure,
 * no allocation. */
#ifndef RWC_CFIREAD_H
#define RWC_CFIREAD_H

#include <stdint.h>
#include <string.h>

/* A bounded reader: any read past END sets BAD and yields 0. */
struct rd {
	uintptr_t p, end;
	int bad;
};

static inline int take(struct rd *r, void *out, size_t n)
{
	if (r->bad || r->p > r->end || r->end - r->p < n) {
		r->bad = 1;
		memset(out, 0, n);
		return 0;
	}
	memcpy(out, (const void *)r->p, n);
	r->p += n;
	return 1;
}

static inline void skip(struct rd *r, uint64_t n)
{
	if (r->bad || r->p > r->end || n > r->end - r->p)
		r->bad = 1;
	else
		r->p += (uintptr_t)n;
}

static inline uint8_t u8(struct rd *r)
{
	uint8_t v;

	take(r, &v, 1);
	return v;
}

static inline uint64_t uleb(struct rd *r)
{
	uint64_t v = 0;

	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = u8(r);

		if (r->bad)
			return 0;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		if (shift > 70) { /* longer than any 64-bit number */
			r->bad = 1;
			return 0;
		}
	}
}

static inline int64_t sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = u8(r);
		if (r->bad || shift > 70) {
			r->bad = 1;
			return 0;
		}
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* DW_EH_PE_* pointer encodings: the value's form (low nibble) and what it
 * is relative to (pcrel: the field; datarel: BASE).  Indirect pointers
 * and the other bases are not used by the tables read here: bad. */
static inline uintptr_t encoded(struct rd *r, uint8_t enc, uintptr_t base)
{
	uintptr_t at = r->p, v;

	if (enc == 0xff) /* DW_EH_PE_omit */
		return 0;
	switch (enc & 0x0f) {
	case 0x00: /* absptr */
	case 0x04: /* udata8 */
	case 0x0c: { /* sdata8 */
		uint64_t x;
		take(r, &x, 8);
		v = (uintptr_t)x;
		break;
	}
	case 0x01: /* uleb128 */
		v = (uintptr_t)uleb(r);
		break;
	case 0x09: /* sleb128 */
		v = (uintptr_t)sleb(r);
		break;
	case 0x02: { /* udata2 */
		uint16_t x;
		take(r, &x, 2);
		v = x;
		break;
	}
	case 0x0a: { /* sdata2 */
		int16_t x;
		take(r, &x, 2);
		v = (uintptr_t)(intptr_t)x;
		break;
	}
	case 0x03: { /* udata4 */
		uint32_t x;
		take(r, &x, 4);
		v = x;
		break;
	}
	case 0x0b: { /* sdata4 */
		int32_t x;
		take(r, &x, 4);
		v = (uintptr_t)(intptr_t)x;
		break;
	}
	default:
		r->bad = 1;
		return 0;
	}
	switch (enc & 0x70) {
	case 0x00:
		return v;
	case 0x10: /* pcrel */
		return v + at;
	case 0x30: /* datarel */
		return v + base;
	default:
		r->bad = 1;
		return 0;
	}
}

#endif
