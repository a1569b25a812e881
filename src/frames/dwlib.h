/* dwlib.h: libdw (with its libelf), dlopen()ed once on first need and
 * shared by the report frames (symbolize.c) and the stack variables
 * (dwvars.c): one handle, one table of its functions.  Under the report
 * lock only (libelf is not thread-safe); the load allocates (the
 * library's own heap) and is kept out of the program's holes (keepout.h). */
#ifndef RWC_DWLIB_H
#define RWC_DWLIB_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <link.h>

#define RWC_DW_FUNCS(X)                                                      \
	X(dwfl_begin) X(dwfl_end) X(dwfl_report_begin) X(dwfl_report_end)    \
	X(dwfl_linux_proc_report) X(dwfl_linux_proc_find_elf)                \
	X(dwfl_build_id_find_debuginfo) X(dwfl_addrmodule) X(dwfl_module_info) \
	X(dwfl_module_addrinfo)                                              \
	X(dwarf_getscopes) X(dwarf_getscopes_die)                             \
	X(dwarf_tag) X(dwarf_attr) X(dwarf_formudata) X(dwarf_getsrcfiles)   \
	X(dwarf_filesrc) X(dwarf_diename) X(dwarf_decl_file)                 \
	X(elf_version) X(elf_begin) X(elf_end) X(elf_cntl) X(dwarf_end)                   \
	X(dwarf_begin_elf) X(dwarf_addrdie) X(dwarf_nextcu) X(dwarf_offdie)  \
	X(dwarf_child) X(dwarf_siblingof)                                     \
	X(dwarf_attr_integrate) X(dwarf_getlocation_addr) X(dwarf_formref_die) \
	X(dwarf_aggregate_size) X(dwarf_formstring) X(dwarf_decl_line)       \
	X(dwarf_hasattr_integrate) X(dwfl_module_getdwarf) X(dwarf_getsrc_die)  \
	X(dwarf_linesrc) X(dwarf_lineno) X(dwarf_diecu) X(dwarf_ranges)      \
	X(dwarf_getelf) X(dwarf_getcfi_elf) X(dwarf_cfi_addrframe)           \
	X(dwarf_frame_cfa) X(dwarf_cfi_end)

struct rwc_dwlib {
#define X(f) __typeof__(&f) f;
	RWC_DW_FUNCS(X)
#undef X
};

/* The table, loading libdw at the first call; NULL when it cannot be
 * loaded (then never again). */
const struct rwc_dwlib *rwc_dwlib(void);

/* The CU of DW that holds ADDR, into *CU: 1, or 0 when none does.  By
 * .debug_aranges; for modules without (clang's default), by a scan of the
 * CUs' ranges, skipping those that start at 0 (code of a section the
 * linker discarded, --gc-sections: no module's code is at 0). */
int rwc_dw_cu_of(const struct rwc_dwlib *L, Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *cu);

/* The scopes around ADDR in CU, innermost first, as the DIE tree nests
 * them: an inlined function's concrete instance, then the functions it
 * was inlined into, out to the CU.  (dwarf_getscopes alone goes from an
 * inlined instance to where its abstract definition lies, mostly the CU
 * itself, and so drops every caller it was inlined into.)  Returns the
 * count, 0 when no scope holds ADDR, -1 when libdw failed; *SCOPES is
 * malloc()ed, or NULL when none. */
int rwc_dw_scopes(const struct rwc_dwlib *L, Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes);

#endif
