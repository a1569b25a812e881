/* dwtype.c: a variable's C type as text, from its DWARF type DIE (see
 * dwtype.h).  Pure over libdw's reads; no allocation of its own. */
#include "config.h"

#include "frames/dwtype.h"

static void type_text(const struct rwc_dwlib *L, struct rwc_fmt *o, Dwarf_Die *t, int depth);

int rwc_dw_type_of(const struct rwc_dwlib *L, Dwarf_Die *die, Dwarf_Die *t)
{
	Dwarf_Attribute at;

	return L->dwarf_attr_integrate(die, DW_AT_type, &at) && L->dwarf_formref_die(&at, t);
}

static void array_text(const struct rwc_dwlib *L, struct rwc_fmt *o, Dwarf_Die *t, int depth)
{
	Dwarf_Die el, sub;
	int first = 1;

	if (rwc_dw_type_of(L, t, &el))
		type_text(L, o, &el, depth + 1);
	else
		rwc_fmt_str(o, "?");
	if (L->dwarf_child(t, &sub) != 0)
		return;
	do {
		Dwarf_Attribute at;
		Dwarf_Word k;

		if (L->dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		rwc_fmt_str(o, first ? " [" : "[");
		first = 0;
		if (L->dwarf_formudata(L->dwarf_attr(&sub, DW_AT_count, &at), &k) == 0)
			rwc_fmt_u64(o, k);
		else if (L->dwarf_formudata(L->dwarf_attr(&sub, DW_AT_upper_bound, &at), &k) == 0)
			rwc_fmt_u64(o, k + 1);
		rwc_fmt_char(o, ']');
	} while (L->dwarf_siblingof(&sub, &sub) == 0);
}

static void type_text(const struct rwc_dwlib *L, struct rwc_fmt *o, Dwarf_Die *t, int depth)
{
	const char *name = L->dwarf_diename(t), *kw = NULL;
	Dwarf_Die in;
	int has = rwc_dw_type_of(L, t, &in) && depth < 8;

	switch (L->dwarf_tag(t)) {
	case DW_TAG_array_type:
		array_text(L, o, t, depth);
		return;
	case DW_TAG_pointer_type:
		if (has)
			type_text(L, o, &in, depth + 1);
		rwc_fmt_str(o, has ? " *" : "void *");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		rwc_fmt_str(o, L->dwarf_tag(t) == DW_TAG_const_type ? "const " : "volatile ");
		if (has)
			type_text(L, o, &in, depth + 1);
		else
			rwc_fmt_str(o, "void");
		return;
	case DW_TAG_structure_type: kw = "struct "; break;
	case DW_TAG_union_type: kw = "union "; break;
	case DW_TAG_enumeration_type: kw = "enum "; break;
	case DW_TAG_class_type: kw = "class "; break;
	default: break;
	}
	if (kw)
		rwc_fmt_str(o, kw);
	rwc_fmt_str(o, name ? name : "<anonymous>");
}

void rwc_dw_type_text(const struct rwc_dwlib *L, struct rwc_fmt *o, Dwarf_Die *t)
{
	type_text(L, o, t, 0);
}
