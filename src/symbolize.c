/* symbolize.c: frame symbolization with a lazily loaded libdw (see
 * symbolize.h).  One Dwfl per report, ended before returning, so no file
 * descriptor outlives the report.  Without libdw, dladdr() gives module
 * and exported function names. */
#include "config.h"

#include "symbolize.h"

#include <dlfcn.h>

#include "once.h"
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DW_FUNCS(X)                                                          \
	X(dwfl_begin) X(dwfl_end) X(dwfl_report_begin) X(dwfl_report_end)    \
	X(dwfl_linux_proc_report) X(dwfl_linux_proc_find_elf)                \
	X(dwfl_build_id_find_debuginfo) X(dwfl_addrmodule) X(dwfl_module_info) \
	X(dwfl_module_addrinfo) X(dwfl_module_getsrc) X(dwfl_lineinfo)       \
	X(dwfl_module_addrdie) X(dwarf_getscopes) X(dwarf_tag) X(dwarf_attr) \
	X(dwarf_formudata) X(dwarf_getsrcfiles) X(dwarf_filesrc)

static struct {
#define X(f) __typeof__(&f) f;
	DW_FUNCS(X)
#undef X
} D;

static struct rwc_once once;

static int load_dw(void)
{
	void *h = dlopen(RWC_DW_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return 0;
#define X(f)                                       \
	if (!(*(void **)&D.f = dlsym(h, #f)))      \
		return 0;
	DW_FUNCS(X)
#undef X
	return 1;
}

int rwc_is_system_header(const char *path)
{
	return path && (strncmp(path, "/usr/include/", 13) == 0 ||
			strncmp(path, "/usr/lib/gcc/", 13) == 0 ||
			strncmp(path, "/usr/local/include/", 19) == 0);
}

static void copy(char *dst, size_t cap, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= cap)
		n = cap - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Where PC's source location is inside a function inlined from a system
 * header, move it out to the call site, repeatedly. */
static void leave_system_inlines(Dwfl_Module *mod, Dwarf_Addr pc, struct rwc_frame *fr)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = D.dwfl_module_addrdie(mod, pc, &bias);
	Dwarf_Die *scopes = NULL;
	Dwarf_Files *files;
	size_t nfiles;
	int ns;

	if (!cu || !rwc_is_system_header(fr->file))
		return;
	ns = D.dwarf_getscopes(cu, pc - bias, &scopes);
	if (ns <= 0 || D.dwarf_getsrcfiles(cu, &files, &nfiles) != 0) {
		free(scopes);
		return;
	}
	for (int i = 0; i < ns && rwc_is_system_header(fr->file); i++) {
		Dwarf_Attribute a;
		Dwarf_Word cf, cl;
		const char *f;

		if (D.dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		if (D.dwarf_formudata(D.dwarf_attr(&scopes[i], DW_AT_call_file, &a), &cf) != 0 ||
		    D.dwarf_formudata(D.dwarf_attr(&scopes[i], DW_AT_call_line, &a), &cl) != 0 ||
		    cf >= nfiles || !(f = D.dwarf_filesrc(files, cf, NULL, NULL)))
			break;
		copy(fr->file, sizeof fr->file, f);
		fr->line = (int)cl;
	}
	free(scopes);
}

static void by_dladdr(struct rwc_frame *fr)
{
	Dl_info info;

	if (dladdr((void *)(fr->pc - 1), &info)) {
		copy(fr->module, sizeof fr->module, info.dli_fname);
		copy(fr->function, sizeof fr->function, info.dli_sname);
		fr->module_off = fr->pc - (uintptr_t)info.dli_fbase;
	}
}

void rwc_symbolize(struct rwc_frame *frames, int n)
{
	static char *debuginfo_path;
	Dwfl_Callbacks cb;
	Dwfl *dwfl = NULL;

	if (rwc_once(&once, load_dw)) {
		memset(&cb, 0, sizeof cb);
		cb.find_elf = D.dwfl_linux_proc_find_elf;
		/* Build-id lookup in /usr/lib/debug only: never the network. */
		cb.find_debuginfo = D.dwfl_build_id_find_debuginfo;
		cb.debuginfo_path = &debuginfo_path;
		dwfl = D.dwfl_begin(&cb);
	}
	if (dwfl) {
		D.dwfl_report_begin(dwfl);
		if (D.dwfl_linux_proc_report(dwfl, getpid()) != 0 ||
		    D.dwfl_report_end(dwfl, NULL, NULL) != 0) {
			D.dwfl_end(dwfl);
			dwfl = NULL;
		}
	}
	for (int i = 0; i < n; i++) {
		struct rwc_frame *fr = &frames[i];
		Dwarf_Addr pc = fr->pc - 1; /* inside the call instruction */
		Dwfl_Module *mod = dwfl ? D.dwfl_addrmodule(dwfl, pc) : NULL;
		Dwarf_Addr start = 0;
		const char *name, *sym, *file;
		GElf_Off off;
		GElf_Sym s;
		Dwfl_Line *line;
		int lineno = 0;

		if (!mod) {
			by_dladdr(fr);
			continue;
		}
		name = D.dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		copy(fr->module, sizeof fr->module, name);
		fr->module_off = fr->pc - (uintptr_t)start;
		sym = D.dwfl_module_addrinfo(mod, pc, &off, &s, NULL, NULL, NULL);
		copy(fr->function, sizeof fr->function, sym);
		line = D.dwfl_module_getsrc(mod, pc);
		if (line && (file = D.dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL))) {
			copy(fr->file, sizeof fr->file, file);
			fr->line = lineno;
			leave_system_inlines(mod, pc, fr);
		}
	}
	if (dwfl)
		D.dwfl_end(dwfl);
}
