/* dwlib.c: the one dlopen() of libdw (see dwlib.h).  Report lock only;
 * allocates (the loader's).  rwc_dw_has_debug_info: reads only. */
#include "config.h"

#include "frames/dwlib.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "base/once.h"
#include "frames/keepout.h"
#include "base/real.h"

static struct rwc_dwlib D;
static struct rwc_once once;
static void *dw_handle; /* stays loaded: reports and checks keep coming */

static int load_dw(void)
{
	void *h;

	rwc_keepout_begin(); /* not into the program's holes: keepout.h */
	h = dw_handle = dlopen(RWC_DW_SONAME, RTLD_NOW | RTLD_LOCAL);
	rwc_keepout_end();

	if (!h)
		return 0;
	/* dlsym on the handle searches libdw's dependencies too (libelf). */
#define X(f)                                       \
	if (!(*(void **)&D.f = dlsym(h, #f)))      \
		return 0;
	RWC_DW_FUNCS(X)
#undef X
	return 1;
}

const struct rwc_dwlib *rwc_dwlib(void)
{
	return rwc_once(&once, load_dw) ? &D : NULL;
}

/* Whether the file's program headers are PH[0..PHNUM), those the module
 * was loaded with: the file at the module's name is the module itself
 * (not another one put there since, or reached from another directory). */
static int same_file(int fd, const ElfW(Ehdr) *eh, const ElfW(Phdr) *ph, int phnum)
{
	ElfW(Phdr) fp[32];
	size_t n = (size_t)phnum * sizeof fp[0];

	if (phnum <= 0 || phnum > 32 || eh->e_phentsize != sizeof fp[0] || eh->e_phnum != phnum ||
	    REAL(pread)(fd, fp, n, (off_t)eh->e_phoff) != (ssize_t)n)
		return 0;
	for (int i = 0; i < phnum; i++)
		if (fp[i].p_type != ph[i].p_type || fp[i].p_vaddr != ph[i].p_vaddr ||
		    fp[i].p_memsz != ph[i].p_memsz || fp[i].p_offset != ph[i].p_offset)
			return 0;
	return 1;
}

/* Whether the ELF file at FD is the module and has a .debug_info section: its section
 * headers and their names read with pread (no libdw for a stripped one). */
/* Whether section header SH names .debug_info: its name looked up in
 * TAB (the first NTAB bytes of the names' section NAMES), else read. */
static int is_debug_info(int fd, const ElfW(Shdr) *sh, const ElfW(Shdr) *names, const char *tab, size_t ntab)
{
	char name[16];

	if (sh->sh_type != SHT_PROGBITS || sh->sh_name >= names->sh_size)
		return 0;
	if (sh->sh_name + sizeof name <= ntab)
		return strncmp(tab + sh->sh_name, ".debug_info", sizeof name) == 0;
	return REAL(pread)(fd, name, sizeof name, (off_t)(names->sh_offset + sh->sh_name)) > 0 &&
	       strncmp(name, ".debug_info", sizeof name) == 0;
}

/* (On the library's own stack: ownstack.h.)  A few preads: the headers
 * and the section names in blocks, not one at a time. */
int rwc_dw_has_debug_info(int fd, const ElfW(Phdr) *ph, int phnum)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) sh[32], names;
	char tab[1024];
	ssize_t ntab;

	if (REAL(pread)(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    !same_file(fd, &eh, ph, phnum) ||
	    eh.e_shentsize != sizeof sh[0] || eh.e_shstrndx == SHN_UNDEF || eh.e_shstrndx >= eh.e_shnum ||
	    REAL(pread)(fd, &names, sizeof names, (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof sh[0])) != (ssize_t)sizeof names)
		return 0;
	ntab = REAL(pread)(fd, tab, sizeof tab, (off_t)names.sh_offset);
	if (ntab < 0)
		ntab = 0;
	for (unsigned i = 1; i < eh.e_shnum && i < 4096; i += 32) {
		unsigned k = eh.e_shnum - i < 32 ? eh.e_shnum - i : 32;
		size_t len = k * sizeof sh[0];

		if (REAL(pread)(fd, sh, len, (off_t)(eh.e_shoff + i * sizeof sh[0])) != (ssize_t)len)
			return 0;
		for (unsigned j = 0; j < k; j++)
			if (is_debug_info(fd, &sh[j], &names, tab, (size_t)ntab))
				return 1;
	}
	return 0;
}
