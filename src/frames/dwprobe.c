/* dwprobe.c: which modules' files have DWARF (see dwprobe.h).  A fixed
 * table by load bias and name, filled under a try-lock of its own and
 * read without it (the link map _dl_find_object finds has both); the file
 * read with pread into a scratch kept under that lock (the caller's stack
 * may be a small thread's), names compared by hand (no lazy binding's
 * frame on it either).  No allocation. */
#include "config.h"

#include "frames/dwprobe.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "base/common.h"
#include "base/context.h"
#include "base/fileio.h"
#include "base/ownmem.h"
#include "base/real.h"
#include "mapview/mapview.h"

/* The scratch in .lbss, after .bss, where GCC makes it a NOBITS section
 * (x86-64): in .bss its page alignment would move .bss to a page boundary
 * of its own, crtstuff's completed.0 (first in .bss) alone on a page that
 * every process then faults in at exit.  (Clang makes .lbss PROGBITS: a
 * third segment, a mapping more per process.) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RWC_SCRATCH_SECTION __attribute__((section(".lbss.rwc_scratch")))
#else
#define RWC_SCRATCH_SECTION
#endif

#define CHUNK 16 /* headers read at a time */
#define WIN 4096 /* a file's tail read at once */
static struct {
	ElfW(Phdr) ph[CHUNK];
	ElfW(Shdr) sh[CHUNK];
	char tab[512];
	char win[WIN] __attribute__((aligned(4096))); /* (one page: one fault) */
} scratch RWC_SCRATCH_SECTION; /* under busy */

/* By the loader's load bias and name (the pointer: its link map's l_addr
 * and l_name).  An entry is published by its name, written last (NULL
 * while it is written), so that a look without the lock reads whole
 * entries. */
#define NPROBE 32
static struct {
	uintptr_t bias;
	const char *name;
	int has;
} known[NPROBE] RWC_START_DATA; /* (on a page the start has written: no fault of its own) */
static int nknown RWC_START_DATA, busy RWC_START_DATA;
static unsigned long long subs_seen RWC_START_DATA;

struct find {
	uintptr_t a;
	struct rwc_dw_module *m;
	int found;
};

static int find_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
		f->m->subs = info->dlpi_subs;
	if (!f->a)
		return 1; /* the count only */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->a >= lo && f->a - lo < ph->p_memsz) {
			f->m->bias = info->dlpi_addr;
			f->m->name = info->dlpi_name;
			f->m->phdr = info->dlpi_phdr;
			f->m->phnum = info->dlpi_phnum;
			f->found = 1;
			return 1;
		}
	}
	return 0;
}

int rwc_dw_module_of(uintptr_t a, struct rwc_dw_module *m)
{
	struct find f = {a, m, 0};

	m->subs = 0;
	dl_iterate_phdr(find_phdr, &f);
	return f.found;
}

/* Whether the file's program headers are PH[0..PHNUM), those the module
 * was loaded with: the file at the module's name is the module itself
 * (not another one put there since, or reached from another directory).
 * HEAD: the file's first NHEAD bytes, read already. */
static int same_file(int fd, const ElfW(Ehdr) *eh, const ElfW(Phdr) *ph, int phnum, ElfW(Phdr) *fp,
		     const char *head, size_t nhead)
{
	if (phnum <= 0 || phnum > 4096 || eh->e_phentsize != sizeof fp[0] || eh->e_phnum != phnum)
		return 0;
	for (int i = 0; i < phnum; i += CHUNK) {
		int k = phnum - i < CHUNK ? phnum - i : CHUNK;
		size_t n = (size_t)k * sizeof fp[0];
		uint64_t at = eh->e_phoff + (size_t)i * sizeof fp[0];

		const ElfW(Phdr) *f = fp;

		if (head && at <= nhead && n <= nhead - at && at % sizeof(uint64_t) == 0)
			f = (const ElfW(Phdr) *)(const void *)(head + at); /* (no other page touched) */
		else if (REAL(pread)(fd, fp, n, (off_t)at) != (ssize_t)n)
			return 0;
		for (int j = 0; j < k; j++)
			if (f[j].p_type != ph[i + j].p_type || f[j].p_vaddr != ph[i + j].p_vaddr ||
			    f[j].p_memsz != ph[i + j].p_memsz || f[j].p_offset != ph[i + j].p_offset)
				return 0;
	}
	return 1;
}

int rwc_dw_same_file(int fd, const ElfW(Phdr) *ph, int phnum)
{
	ElfW(Phdr) fp[CHUNK];
	ElfW(Ehdr) eh;

	return REAL(pread)(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	       same_file(fd, &eh, ph, phnum, fp, NULL, 0);
}

/* S (N bytes of it readable) is ".debug_info", its terminator included. */
static int names_debug_info(const char *s, size_t n)
{
	static const char want[] = ".debug_info";
	size_t i;

	for (i = 0; i < sizeof want && i < n && s[i] == want[i]; i++)
		;
	return i == sizeof want;
}

/* Whether section header SH names .debug_info: its name looked up in
 * TAB (the first NTAB bytes of the names' section NAMES), else read. */
static int is_debug_info(int fd, const ElfW(Shdr) *sh, const ElfW(Shdr) *names, const char *tab, size_t ntab)
{
	char name[16];

	if (sh->sh_type != SHT_PROGBITS || sh->sh_name >= names->sh_size)
		return 0;
	if (sh->sh_name + sizeof name <= ntab || names->sh_size <= ntab) /* (the name ends in TAB) */
		return names_debug_info(tab + sh->sh_name, ntab - sh->sh_name);
	return REAL(pread)(fd, name, sizeof name, (off_t)(names->sh_offset + sh->sh_name)) > 0 &&
	       names_debug_info(name, sizeof name);
}

/* Whether any of the section headers SH[0..K) names .debug_info. */
static int any_debug_info(int fd, const ElfW(Shdr) *sh, unsigned k, const ElfW(Shdr) *names, const char *tab,
			  ssize_t ntab)
{
	for (unsigned j = 0; j < k; j++)
		if (is_debug_info(fd, &sh[j], names, tab, ntab > 0 ? (size_t)ntab : 0))
			return 1;
	return 0;
}

/* The same from one read of the file's tail, where the section headers
 * (and usually the names' section before them) fit in WIN bytes: 1, 0, or
 * -1 they do not fit (sections_say reads them in blocks). */
static int tail_says(int fd, const ElfW(Ehdr) *eh, unsigned n)
{
	size_t shbytes = (size_t)n * sizeof(ElfW(Shdr)), room, ntab;
	uint64_t start;
	const ElfW(Shdr) *sh, *names;
	const char *tab;

	if (shbytes > WIN - 512 || eh->e_shoff % 8 || eh->e_shoff > (uint64_t)INT64_MAX - WIN)
		return -1;
	room = (WIN - shbytes) & ~(size_t)7;
	start = eh->e_shoff > room ? eh->e_shoff - room : 0;
	if (REAL(pread)(fd, scratch.win, (size_t)(eh->e_shoff - start) + shbytes, (off_t)start) !=
	    (ssize_t)((size_t)(eh->e_shoff - start) + shbytes))
		return 0;
	sh = (const ElfW(Shdr) *)(scratch.win + (eh->e_shoff - start));
	names = &sh[eh->e_shstrndx];
	if (names->sh_offset >= start && names->sh_offset < eh->e_shoff) { /* the names in what was read */
		tab = scratch.win + (names->sh_offset - start);
		ntab = (size_t)(eh->e_shoff - names->sh_offset);
	} else {
		ssize_t got = REAL(pread)(fd, scratch.tab, sizeof scratch.tab, (off_t)names->sh_offset);

		tab = scratch.tab;
		ntab = got > 0 ? (size_t)got : 0;
	}
	return any_debug_info(fd, sh, n, names, tab, (ssize_t)ntab);
}

/* Whether the ELF file at FD, whose ELF header is EH, has a .debug_info
 * section: its section headers read in blocks, the last block first (the
 * names' section is usually the last), then the names. */
static int sections_say(int fd, const ElfW(Ehdr) *eh)
{
	ElfW(Shdr) *sh = scratch.sh, names;
	char *tab = scratch.tab;
	unsigned n = eh->e_shnum < 4096 ? eh->e_shnum : 4096, last = n > CHUNK + 1 ? n - CHUNK : 1, k = n - last;
	ssize_t ntab;
	int has;

	if (eh->e_shentsize != sizeof names || eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= n || n < 2)
		return 0;
	if ((has = tail_says(fd, eh, n)) >= 0)
		return has;
	if (REAL(pread)(fd, sh, k * sizeof names, (off_t)(eh->e_shoff + last * sizeof names)) != (ssize_t)(k * sizeof names))
		return 0;
	if (eh->e_shstrndx >= last)
		names = sh[eh->e_shstrndx - last];
	else if (REAL(pread)(fd, &names, sizeof names, (off_t)(eh->e_shoff + eh->e_shstrndx * sizeof names)) !=
		 (ssize_t)sizeof names)
		return 0;
	ntab = REAL(pread)(fd, tab, sizeof scratch.tab, (off_t)names.sh_offset);
	if (any_debug_info(fd, sh, k, &names, tab, ntab))
		return 1;
	for (unsigned i = 1; i < last; i += CHUNK) {
		unsigned c = last - i < CHUNK ? last - i : CHUNK;
		size_t len = c * sizeof names;

		if (REAL(pread)(fd, sh, len, (off_t)(eh->e_shoff + i * sizeof names)) != (ssize_t)len)
			return 0;
		if (any_debug_info(fd, sh, c, &names, tab, ntab))
			return 1;
	}
	return 0;
}

/* Whether the ELF file at FD is the module (loaded with the program
 * headers PH[0..PHNUM), whose ELF header in memory is MEM, NULL where it
 * is not mapped; PH NULL: the file is the module, whose header MEM is)
 * and has a .debug_info section: 1, 0, -1 not the module's file. */
static int has_debug_info(int fd, const ElfW(Ehdr) *mem, const ElfW(Phdr) *ph, int phnum)
{
	ElfW(Ehdr) eh;
	ssize_t got = 0;

	if (!ph && mem)
		eh = *mem;
	else if ((got = REAL(pread)(fd, scratch.win, 1024, 0)) < (ssize_t)sizeof eh) /* (the program headers too) */
		return -1;
	else
		memcpy(&eh, scratch.win, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || (ph && mem && memcmp(mem, &eh, sizeof eh) != 0) ||
	    eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    (ph && !same_file(fd, &eh, ph, phnum, scratch.ph, scratch.win, got > 0 ? (size_t)got : 0)))
		return -1;
	return sections_say(fd, &eh);
}

/* The same for the executable by the absolute name it was run by
 * (AT_EXECFN: no /proc lookup), when that file is still the one it runs
 * (its program headers those in memory); -1: that name does not say (a
 * relative one, a script's, another file there now). */
static int exe_by_name(const ElfW(Ehdr) *mem, const struct rwc_dw_module *m)
{
	const char *fn = rwc_exec_name();
	int fd, has;

	if (!fn || !m->phdr || (fd = open(fn, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) /* (a FIFO there now) */
		return -1;
	has = has_debug_info(fd, mem, m->phdr, m->phnum);
	close(fd);
	return has;
}

/* The module's ELF header where it is mapped (the start of its segment
 * at file offset 0), or NULL; *END the end of the file's loaded bytes. */
static const ElfW(Ehdr) *header_in_memory(const struct rwc_dw_module *m, uint64_t *end)
{
	const ElfW(Ehdr) *eh = NULL;
	struct rwc_verdict v;

	*end = 0;
	for (int i = 0; i < m->phnum; i++) {
		const ElfW(Phdr) *ph = &m->phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_offset == 0 && ph->p_filesz >= sizeof *eh)
			eh = (const ElfW(Ehdr) *)(m->bias + ph->p_vaddr);
		if (ph->p_offset + ph->p_filesz > *end)
			*end = ph->p_offset + ph->p_filesz;
	}
	if (!eh || rwc_map_verdict((uintptr_t)eh, sizeof *eh, RWC_NEED_READ, &v) != RWC_OK ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return NULL;
	return eh;
}

/* A file's sections not loaded (.comment, .symtab, the .debug_ ones)
 * lie between its loaded bytes and its section headers: a stripped file
 * has a few hundred bytes there, and no .debug_info that holds a
 * variable fits in this much room (with .debug_abbrev and .debug_line
 * beside it, even an empty unit's take more). */
#define NO_DEBUG_ROOM 512

/* The answer for the module loaded at BIAS with the name NAME: 1, 0, or
 * -1 not in the table.  Without the lock too. */
static int known_as(uintptr_t bias, const char *name)
{
	int n = __atomic_load_n(&nknown, __ATOMIC_ACQUIRE);

	for (int i = 0; i < n && i < NPROBE; i++) {
		const char *nm = __atomic_load_n(&known[i].name, __ATOMIC_ACQUIRE);
		uintptr_t b = __atomic_load_n(&known[i].bias, __ATOMIC_RELAXED);
		int has = __atomic_load_n(&known[i].has, __ATOMIC_RELAXED);

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (nm && nm == name && b == bias && __atomic_load_n(&known[i].name, __ATOMIC_RELAXED) == nm)
			return has;
	}
	return -1;
}

/* Enters M's answer HAS in the table. */
static void enter(const struct rwc_dw_module *m, int has)
{
	int i = nknown;

	if (i >= NPROBE || !m->name)
		return;
	__atomic_store_n(&known[i].name, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&known[i].bias, m->bias, __ATOMIC_RELAXED);
	__atomic_store_n(&known[i].has, has, __ATOMIC_RELAXED);
	__atomic_store_n(&known[i].name, m->name, __ATOMIC_RELEASE);
	__atomic_store_n(&nknown, i + 1, __ATOMIC_RELEASE);
}

/* The answer for module M, from the table or read now (under the lock). */
static int probe(const struct rwc_dw_module *m)
{
	const ElfW(Ehdr) *mem;
	uint64_t end;
	int fd = -1, has;

	if (m->subs != subs_seen) { /* a module was removed: forget them all */
		__atomic_store_n(&nknown, 0, __ATOMIC_RELEASE);
		subs_seen = m->subs;
	}
	if ((has = known_as(m->bias, m->name)) >= 0)
		return has;
	mem = header_in_memory(m, &end);
	if (mem && mem->e_shoff >= end && mem->e_shoff - end <= NO_DEBUG_ROOM) {
		has = 0; /* said by the header in memory: no file opened */
	} else if (m->name && m->name[0]) {
		fd = open(m->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		has = fd >= 0 && has_debug_info(fd, mem, m->phdr, m->phnum) > 0;
	} else if ((has = exe_by_name(mem, m)) < 0) { /* the kernel's link is the file it runs */
		fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
		has = fd >= 0 && has_debug_info(fd, mem, NULL, 0) > 0;
	}
	if (fd >= 0)
		close(fd);
	enter(m, has);
	return has;
}

int rwc_dwprobe_at(uintptr_t pc)
{
	struct rwc_dw_module m = {0};
	int has;
#ifdef DLFO_STRUCT_HAS_EH_DBASE /* glibc 2.35+ */
	struct dl_find_object d;

	/* a module looked at before: no lock, no system call */
	if (_dl_find_object((void *)(pc - 1), &d) == 0 && d.dlfo_link_map &&
	    (has = known_as(d.dlfo_link_map->l_addr, d.dlfo_link_map->l_name)) >= 0)
		return has;
#endif
	if (rwc_maybe_in_handler() || rwc_in_vfork_child() || __atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return -1;
	has = rwc_dw_module_of(pc - 1, &m) ? probe(&m) : 0;
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return has;
}

void rwc_dwprobe_forked(void)
{
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}
