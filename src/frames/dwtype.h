/* dwtype.h: a variable's C type as text ("char [16]", "struct foo",
 * "const char *"), from DWARF.  libdw's reads only (dwlib.h); under the
 * report lock, as every use of libdw. */
#ifndef RWC_DWTYPE_H
#define RWC_DWTYPE_H

#include "base/fmt.h"
#include "frames/dwlib.h"

/* The type DIE of DIE (its DW_AT_type, through abstract origins): 1, or 0
 * for none. */
int rwc_dw_type_of(const struct rwc_dwlib *L, Dwarf_Die *die, Dwarf_Die *t);

/* The C text of the type T into O: arrays as "char [2][8]", pointers
 * "T *", qualifiers, tags "struct foo", typedef and base type names. */
void rwc_dw_type_text(const struct rwc_dwlib *L, struct rwc_fmt *o, Dwarf_Die *t);

#endif
