/* sitefmt.h: the records of the call-site cache (sitecache.h): one call
 * site's stack variables as dwvars.c works them out from DWARF, in bytes
 * that a later process reads back instead of the DWARF; and a module's
 * build-id, from its notes in memory, that names its cache file.  Pure:
 * no allocation, no system call; a record read back is checked whole
 * (magic, length, each string inside it, a checksum) before anything of
 * it is used. */
#ifndef RWC_SITEFMT_H
#define RWC_SITEFMT_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

#define RWC_SF_MAXVARS 1024 /* variables of one site kept at most */

/* A variable: its storage at base + off (base as dwvars.c numbers it: the
 * frame's CFA or sp), size bytes; its name, type text, declaring file
 * and line, and function (NULL: none). */
struct rwc_sf_var {
	int base, line;
	int64_t off;
	uint64_t size;
	const char *name, *type, *file, *func;
};

/* The record of the site at PCOFF (the pc's offset in its module) with
 * its N variables V, into OUT[0..CAP): its length, or 0 when it does not
 * fit (or N is out of range). */
size_t rwc_sf_encode(uint64_t pcoff, const struct rwc_sf_var *v, unsigned n, unsigned char *out, size_t cap);

/* The record at IN[0..LEN): its length (> 0), *PCOFF and *N set, or 0
 * when the bytes there are not one whole good record (then nothing past
 * them is trusted).  The variables are read by rwc_sf_vars. */
size_t rwc_sf_decode(const unsigned char *in, size_t len, uint64_t *pcoff, unsigned *n);

/* The variables of the good record REC (rwc_sf_decode said so, and how
 * many: V has room for them), in one pass: their strings point into REC. */
void rwc_sf_vars(const unsigned char *rec, struct rwc_sf_var *v);

/* The module's build-id (its NT_GNU_BUILD_ID note, read from the loaded
 * image: PH[0..PHNUM) at load bias BIAS) as lowercase hex into HEX[CAP]:
 * its length, or 0 when it has none (or it does not fit). */
size_t rwc_sf_build_id(const ElfW(Phdr) *ph, int phnum, uintptr_t bias, char *hex, size_t cap);

#endif
