/* dwprobe.c: which modules' files have DWARF (see dwprobe.h).  A fixed
 * table by load bias and name, filled under a try-lock of its own and
 * read without it (the link map _dl_find_object finds has both); the file's
 * headers read with pread onto the stack a KiB at a time (the caller's
 * may be a small thread's: 16 KiB), a section's name only where its
 * header allows .debug_info.  No allocation. */
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

/* The headers are read onto the stack, 1 KiB at a time: pages the
 * thread has touched, where a buffer in .bss would be a page of its own,
 * a fault (~5 us in a VM) inside the first stack check of every process.
 * The program headers past that first KiB (a rare file) go to SCRATCH. */
#define CHUNK 16 /* headers read at a time */
#define HEAD 1024 /* the ELF header and the program headers, read at once */
static ElfW(Phdr) scratch[CHUNK]; /* under busy */

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

/* Whether section header SH may be .debug_info: not loaded, not
 * strings (.comment), not symbols: none such in most files built
 * without -g, whose sections' names then need no read at all. */
static int may_be_debug_info(const ElfW(Shdr) *sh)
{
	return sh->sh_type == SHT_PROGBITS && sh->sh_size &&
	       !(sh->sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR | SHF_MERGE | SHF_STRINGS));
}

/* Whether SH, in the names' section NAMES, is named ".debug_info". */
static int is_debug_info(int fd, const ElfW(Shdr) *sh, const ElfW(Shdr) *names)
{
	static const char want[] = ".debug_info";
	char name[sizeof want];

	return sh->sh_name < names->sh_size && names->sh_size - sh->sh_name >= sizeof want &&
	       REAL(pread)(fd, name, sizeof name, (off_t)(names->sh_offset + sh->sh_name)) == (ssize_t)sizeof name &&
	       memcmp(name, want, sizeof want) == 0;
}

/* Whether the ELF file at FD, whose ELF header is EH, has a .debug_info
 * section: its section headers read in blocks from the last (the .debug_
 * ones come late, before the symbols), the names' section's header and a
 * name read only for a section that may be it. */
static int sections_say(int fd, const ElfW(Ehdr) *eh)
{
	ElfW(Shdr) sh[CHUNK], names;
	unsigned n = eh->e_shnum < 4096 ? eh->e_shnum : 4096, end = n;
	int named = 0;

	if (eh->e_shentsize != sizeof names || eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= n || n < 2)
		return 0;
	while (end > 1) { /* (section 0 is none) */
		unsigned start = end > CHUNK + 1 ? end - CHUNK : 1, c = end - start;
		size_t len = c * sizeof names;

		if (REAL(pread)(fd, sh, len, (off_t)(eh->e_shoff + start * sizeof names)) != (ssize_t)len)
			return 0;
		for (unsigned j = 0; j < c; j++) {
			if (!may_be_debug_info(&sh[j]))
				continue;
			if (!named && eh->e_shstrndx >= start && eh->e_shstrndx < end)
				names = sh[eh->e_shstrndx - start];
			else if (!named && REAL(pread)(fd, &names, sizeof names,
							(off_t)(eh->e_shoff + eh->e_shstrndx * sizeof names)) != (ssize_t)sizeof names)
				return 0;
			named = 1;
			if (is_debug_info(fd, &sh[j], &names))
				return 1;
		}
		end = start;
	}
	return 0;
}

/* The ELF header of the file at FD into *EH, when its program headers are
 * PH[0..PHNUM) and its ELF header that in memory, MEM (where mapped):
 * the file is the module's.  The head is read onto the stack (see CHUNK),
 * in a frame of its own, gone before the section headers are read. */
static __attribute__((noinline)) int file_header(int fd, const ElfW(Ehdr) *mem, const ElfW(Phdr) *ph, int phnum,
						 ElfW(Ehdr) *eh)
{
	char head[HEAD] __attribute__((aligned(8))); /* (the program headers too) */
	ssize_t got = REAL(pread)(fd, head, sizeof head, 0);

	if (got < (ssize_t)sizeof *eh)
		return 0;
	memcpy(eh, head, sizeof *eh);
	return (!mem || memcmp(mem, eh, sizeof *eh) == 0) &&
	       (!ph || same_file(fd, eh, ph, phnum, scratch, head, (size_t)got));
}

/* Whether the ELF file at FD is the module (loaded with the program
 * headers PH[0..PHNUM), whose ELF header in memory is MEM, NULL where it
 * is not mapped; PH NULL: the file is the module, whose header MEM is)
 * and has a .debug_info section: 1, 0, -1 not the module's file. */
static int has_debug_info(int fd, const ElfW(Ehdr) *mem, const ElfW(Phdr) *ph, int phnum)
{
	ElfW(Ehdr) eh;

	if (!ph && mem)
		eh = *mem;
	else if (!file_header(fd, mem, ph, phnum, &eh))
		return -1;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
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

RWC_FORK_CODE void rwc_dwprobe_forked(void)
{
	/* written only when set: busy's page is shared with the parent, and a
	 * write would copy it in every child */
	if (__atomic_load_n(&busy, __ATOMIC_RELAXED))
		__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}
