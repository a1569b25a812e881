/* symbolize.c: frame symbolization with a lazily loaded libdw (see
 * symbolize.h).  One Dwfl per report, ended before returning, so no file
 * descriptor outlives the report.  Without libdw, dladdr() gives module
 * and exported function names; so it does when the process is short of
 * address space, because libdw ends the program when an allocation of
 * its own fails (elfutils' __libdw_oom: error(EXIT_FAILURE, ENOMEM)). */
#include "config.h"

#include "frames/symbolize.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "frames/demangle.h"
#include "frames/dwlib.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pagesize.h"
#include "base/real.h"

/* libdw's functions (dwlib.h); set by rwc_symbolize before any use. */
static const struct rwc_dwlib *dl;
#define D (*dl)

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

/* The CU that holds PC in MOD (CU: storage for it; dwlib.h), and the
 * module's *BIAS; NULL when none does. */
static Dwarf_Die *cu_of(Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Die *cu, Dwarf_Addr *bias)
{
	Dwarf *dw = D.dwfl_module_getdwarf(mod, bias);

	return dw && rwc_dw_cu_of(dl, dw, pc - *bias, cu) ? cu : NULL;
}

/* The source line of PC in MOD into FR (file and line), from the line
 * table of its CU. */
static void line_of(Dwfl_Module *mod, Dwarf_Addr pc, struct rwc_frame *fr)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die cub, *cu;
	Dwarf_Line *l;
	const char *file;
	int lineno = 0;

	if ((cu = cu_of(mod, pc, &cub, &bias)) && (l = D.dwarf_getsrc_die(cu, pc - bias)) &&
	    (file = D.dwarf_linesrc(l, NULL, NULL)) && D.dwarf_lineno(l, &lineno) == 0) {
		copy(fr->file, sizeof fr->file, file);
		fr->line = lineno;
	}
}

/* Whether the inlined function DIE (or the line LOC inside it) belongs to
 * a system header: glibc's fortified read() and the like, whose frames are
 * not shown, as frames inside libc are not. */
static int hidden_inline(Dwarf_Die *die, const char *loc)
{
	return rwc_is_system_header(loc) || rwc_is_system_header(D.dwarf_decl_file(die));
}

/* The frames of one return address PC: one per function inlined there
 * (innermost first, each at its line), then the function the symbol table
 * names, at the line it made the outermost inlined call.  Inlined functions
 * from system headers give no frame: their location moves out to their
 * call site.  BASE holds the module, the symbol and the line table's
 * location.  Returns how many of OUT[0..cap) it filled (at least 1). */
static int expand_inlines(Dwfl_Module *mod, Dwarf_Addr pc, const struct rwc_frame *base,
			  struct rwc_frame *out, int cap)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die cub, *cu = base->file[0] ? cu_of(mod, pc, &cub, &bias) : NULL;
	Dwarf_Die *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int ns = 0, k = 0;

	out[0] = *base;
	if (cu && (ns = rwc_dw_scopes(dl, cu, pc - bias, &scopes)) > 0 &&
	    D.dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		ns = 0;
	for (int i = 0; i < ns && k < cap - 1; i++) {
		Dwarf_Attribute a;
		Dwarf_Word cf, cl;
		const char *f, *name;

		if (D.dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		if (D.dwarf_formudata(D.dwarf_attr(&scopes[i], DW_AT_call_file, &a), &cf) != 0 ||
		    D.dwarf_formudata(D.dwarf_attr(&scopes[i], DW_AT_call_line, &a), &cl) != 0 ||
		    cf >= nfiles || !(f = D.dwarf_filesrc(files, cf, NULL, NULL)))
			break;
		if (!hidden_inline(&scopes[i], out[k].file)) {
			/* out[k] is this inlined function, at the current line */
			name = D.dwarf_diename(&scopes[i]);
			copy(out[k].function, sizeof out[k].function, name ? name : "??");
			out[k + 1] = *base;
			k++;
		}
		copy(out[k].file, sizeof out[k].file, f);
		out[k].line = (int)cl;
	}
	free(scopes);
	return k + 1;
}

static void by_dladdr(struct rwc_frame *fr)
{
	Dl_info info;

	if (dladdr((void *)(fr->pc - 1), &info)) {
		copy(fr->module, sizeof fr->module, info.dli_fname);
		rwc_demangle(info.dli_sname, fr->function, sizeof fr->function);
		fr->module_off = fr->pc - (uintptr_t)info.dli_fbase;
	}
}

/* 1 when libdw can run out of nothing: no address-space or data limit, or
 * at least 64 MiB plus twice the size of the frames' modules (libdw maps
 * them, and their separate debug files) to spare under it. */
int rwc_room_for_libdw(const uintptr_t *pcs, int n)
{
	struct rlimit as, data;
	unsigned long long need = 64ull << 20, pages[7] = {0}, pg;
	char buf[256], *p = buf;
	uintptr_t bases[32]; /* modules counted once (more than 32: the rest not counted) */
	ssize_t got;
	int fd, i = 0, nbases = 0;

	if (getrlimit(RLIMIT_AS, &as) != 0 || getrlimit(RLIMIT_DATA, &data) != 0)
		return 0;
	if (as.rlim_cur == RLIM_INFINITY && data.rlim_cur == RLIM_INFINITY)
		return 1;
	fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	got = rwc_read_real(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	while (i < 7 && *p) /* size resident shared text lib data dt, in pages */
		pages[i++] = strtoull(p, &p, 10);
	for (int k = 0; k < n; k++) {
		Dl_info info;
		struct stat st;
		int seen = 0;

		if (!dladdr((void *)(pcs[k] - 1), &info) || !info.dli_fname || !info.dli_fname[0])
			continue;
		for (int j = 0; j < nbases && !seen; j++)
			seen = bases[j] == (uintptr_t)info.dli_fbase;
		if (seen || nbases == (int)(sizeof bases / sizeof bases[0]))
			continue;
		bases[nbases++] = (uintptr_t)info.dli_fbase;
		if (stat(info.dli_fname, &st) == 0)
			need += 2ull * (unsigned long long)st.st_size;
	}
	pg = (unsigned long long)rwc_page_size();
	return rwc_dw_room(as.rlim_cur, pages[0] * pg, data.rlim_cur, pages[5] * pg, need);
}

int rwc_symbolize(const uintptr_t *pcs, int n, struct rwc_frame *frames, int cap)
{
	static char *debuginfo_path;
	Dwfl_Callbacks cb;
	Dwfl *dwfl = NULL;
	int k = 0;

	if (rwc_room_for_libdw(pcs, n) && (dl = rwc_dwlib())) {
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
	for (int i = 0; i < n && k < cap; i++) {
		struct rwc_frame fr;
		Dwarf_Addr pc = pcs[i] - 1; /* inside the call instruction */
		Dwfl_Module *mod = dwfl ? D.dwfl_addrmodule(dwfl, pc) : NULL;
		Dwarf_Addr start = 0;
		const char *name, *sym;
		GElf_Off off;
		GElf_Sym s;

		memset(&fr, 0, sizeof fr);
		fr.pc = pcs[i];
		if (!mod) {
			by_dladdr(&fr);
			frames[k++] = fr;
			continue;
		}
		name = D.dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		copy(fr.module, sizeof fr.module, name);
		fr.module_off = fr.pc - (uintptr_t)start;
		sym = D.dwfl_module_addrinfo(mod, pc, &off, &s, NULL, NULL, NULL);
		rwc_demangle(sym, fr.function, sizeof fr.function);
		line_of(mod, pc, &fr);
		k += expand_inlines(mod, pc, &fr, frames + k, cap - k);
	}
	if (dwfl)
		D.dwfl_end(dwfl);
	return k;
}
