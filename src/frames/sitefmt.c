/* sitefmt.c: the call-site cache's records (see sitefmt.h).  A record:
 *
 *   u32 magic, u32 length (the whole record), u64 pc offset,
 *   u32 variables, u32 checksum (FNV-1a over the record, itself as 0),
 *   per variable: i32 base, i32 line, i64 offset, u64 size,
 *                 u16 length of each of its four strings (0: none),
 *   then the strings, each with its NUL, variable by variable.
 *
 * Host byte order: a cache is one machine's. */
#include "config.h"

#include "frames/sitefmt.h"

#include <elf.h>
#include <string.h>

#define MAGIC 0x31535752u /* "RWS1" */
#define HEAD 24u
#define FIXED 32u /* a variable's fixed part */
#define NSTR 4

static uint32_t fnv(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (i - 20 < 4 ? 0 : p[i])) * 16777619u; /* (bytes 20..23: the sum itself) */
	return h;
}

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* The length of string K of variable I of the record at REC. */
static uint16_t len_at(const unsigned char *rec, size_t i, int k)
{
	uint16_t l;

	memcpy(&l, rec + HEAD + i * FIXED + 24 + 2 * (size_t)k, 2);
	return l;
}

static const char *str_of(const struct rwc_sf_var *v, int k)
{
	return k == 0 ? v->name : k == 1 ? v->type : k == 2 ? v->file : v->func;
}

size_t rwc_sf_encode(uint64_t pcoff, const struct rwc_sf_var *v, unsigned n, unsigned char *out, size_t cap)
{
	size_t at = HEAD + (size_t)n * FIXED, len;

	if (n > RWC_SF_MAXVARS || at > cap)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned char *f = out + HEAD + (size_t)i * FIXED;

		put32(f, (uint32_t)v[i].base);
		put32(f + 4, (uint32_t)v[i].line);
		put64(f + 8, (uint64_t)v[i].off);
		put64(f + 16, v[i].size);
		for (int k = 0; k < NSTR; k++) {
			const char *s = str_of(&v[i], k);
			size_t l = s ? strlen(s) + 1 : 0;
			uint16_t l16 = (uint16_t)l;

			if (l > 0xffff || l > cap - at)
				return 0;
			memcpy(f + 24 + 2 * (size_t)k, &l16, 2);
			if (l)
				memcpy(out + at, s, l);
			at += l;
		}
	}
	len = at;
	if (len > 0xffffffffu)
		return 0;
	put32(out, MAGIC);
	put32(out + 4, (uint32_t)len);
	put64(out + 8, pcoff);
	put32(out + 16, n);
	put32(out + 20, fnv(out, len));
	return len;
}

size_t rwc_sf_decode(const unsigned char *in, size_t len, uint64_t *pcoff, unsigned *n)
{
	size_t rl, at;
	uint32_t nv;

	if (len < HEAD || get32(in) != MAGIC)
		return 0;
	rl = get32(in + 4);
	nv = get32(in + 16);
	if (rl < HEAD || rl > len || nv > RWC_SF_MAXVARS || (size_t)nv * FIXED > rl - HEAD)
		return 0;
	at = HEAD + (size_t)nv * FIXED;
	for (uint32_t i = 0; i < nv; i++)
		for (int k = 0; k < NSTR; k++) {
			uint16_t l = len_at(in, i, k);

			if (l > rl - at || (l && memchr(in + at, '\0', l) != in + at + l - 1))
				return 0; /* (each string exactly its bytes and one NUL) */
			at += l;
		}
	if (at != rl || get32(in + 20) != fnv(in, rl))
		return 0;
	*pcoff = get64(in + 8);
	*n = nv;
	return rl;
}

void rwc_sf_vars(const unsigned char *rec, struct rwc_sf_var *v)
{
	uint32_t n = get32(rec + 16);
	size_t at = HEAD + (size_t)n * FIXED;

	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *f = rec + HEAD + (size_t)i * FIXED;
		const char *s[NSTR];

		for (int k = 0; k < NSTR; k++) {
			uint16_t l = len_at(rec, i, k);

			s[k] = l ? (const char *)rec + at : NULL;
			at += l;
		}
		v[i].base = (int)get32(f);
		v[i].line = (int)get32(f + 4);
		v[i].off = (int64_t)get64(f + 8);
		v[i].size = get64(f + 16);
		v[i].name = s[0], v[i].type = s[1], v[i].file = s[2], v[i].func = s[3];
	}
}

/* The build-id note in the note segment at [p, p+len) whose notes are
 * aligned to ALIGN (4, or 8: then a descriptor and the next note start
 * on 8-byte offsets), or NULL. */
static const unsigned char *note_id(const unsigned char *p, size_t len, size_t align, size_t *idlen)
{
	while (len >= sizeof(ElfW(Nhdr))) {
		ElfW(Nhdr) h;
		size_t desc, next;

		memcpy(&h, p, sizeof h);
		desc = (sizeof h + (size_t)h.n_namesz + align - 1) & ~(align - 1);
		if (h.n_namesz > len || desc > len || h.n_descsz > len - desc)
			return NULL;
		next = (desc + (size_t)h.n_descsz + align - 1) & ~(align - 1);
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && memcmp(p + sizeof h, "GNU", 4) == 0) {
			*idlen = h.n_descsz;
			return p + desc;
		}
		if (next >= len)
			return NULL;
		p += next, len -= next;
	}
	return NULL;
}

/* [a, a+n) lies in a readable loaded segment of PH. */
static int loaded(const ElfW(Phdr) *ph, int phnum, uintptr_t a, size_t n)
{
	for (int i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && a >= ph[i].p_vaddr &&
		    n <= ph[i].p_filesz && a - ph[i].p_vaddr <= ph[i].p_filesz - n)
			return 1;
	return 0;
}

size_t rwc_sf_build_id(const ElfW(Phdr) *ph, int phnum, uintptr_t bias, char *hex, size_t cap)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; ph && i < phnum; i++) {
		const unsigned char *id;
		size_t n = 0;

		if (ph[i].p_type != PT_NOTE || !loaded(ph, phnum, ph[i].p_vaddr, ph[i].p_filesz))
			continue;
		id = note_id((const unsigned char *)(bias + ph[i].p_vaddr), ph[i].p_filesz, ph[i].p_align == 8 ? 8 : 4, &n);
		if (!id || n < 8 || n > 64 || 2 * n + 1 > cap)
			continue;
		for (size_t j = 0; j < n; j++)
			hex[2 * j] = digits[id[j] >> 4], hex[2 * j + 1] = digits[id[j] & 15];
		hex[2 * n] = '\0';
		return 2 * n;
	}
	return 0;
}
