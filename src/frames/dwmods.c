/* dwmods.c: the modules of dwvars.c's frames and their DWARF (see
 * dwmods.h): a fixed table, filled at each module's first pc, emptied
 * when the loader's removal count moves.  Under the report lock;
 * allocates (libdw); the module's file is mapped (libelf) and its
 * descriptor closed before returning. */
#include "config.h"

#include "frames/dwmods.h"
#include "base/common.h"

#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <unistd.h>

#include "frames/keepout.h"
#include "frames/symbolize.h"

static const struct rwc_dwlib *L;

/* The modules by load bias and name, found in the loader's list walked
 * with dl_iterate_phdr (its short list lock, never dladdr's loader lock,
 * which a thread inside dlopen() holds while its constructors read). */
#define NMOD 128
static struct rwc_dwmod mods[NMOD];
static int nmods RWC_START_DATA;
static unsigned long long subs_seen RWC_START_DATA;

struct dv_find {
	uintptr_t a;        /* in: the address */
	uintptr_t bias;     /* out: the module holding it */
	const char *name;
	const ElfW(Phdr) *phdr;
	int phnum;
	int found;
	unsigned long long subs;
};

static int find_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dv_find *f = arg;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
		f->subs = info->dlpi_subs;
	if (!f->a)
		return 1; /* the count only */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->a >= lo && f->a - lo < ph->p_memsz) {
			f->bias = info->dlpi_addr;
			f->name = info->dlpi_name;
			f->phdr = info->dlpi_phdr;
			f->phnum = info->dlpi_phnum;
			f->found = 1;
			return 1;
		}
	}
	return 0;
}

int rwc_dwmods_unloaded(void)
{
	struct dv_find f = {0, 0, NULL, NULL, 0, 0, 0};
	int changed;

	dl_iterate_phdr(find_phdr, &f); /* the loader's removal count */
	changed = f.subs != subs_seen;
	subs_seen = f.subs;
	return changed;
}

/* Maps the module file and reads its DWARF: NULL for none.  Loads libdw
 * only for a file that has DWARF. */
static Dwarf *open_dwarf(const char *path, const struct dv_find *mf, uintptr_t pc, Elf **elfp)
{
	Elf *elf;
	Dwarf *dw = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*elfp = NULL;
	if (fd < 0)
		return NULL;
	if (!rwc_dw_has_debug_info(fd, mf->phdr, mf->phnum) || !rwc_room_for_libdw(&pc, 1) || !(L || (L = rwc_dwlib()))) {
		close(fd);
		return NULL;
	}
	L->elf_version(EV_CURRENT);
	rwc_keepout_begin(); /* the file's mapping: not into a hole */
	elf = L->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		dw = L->dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		L->elf_cntl(elf, ELF_C_FDDONE); /* mapped: the descriptor is done with */
		if (!dw)
			L->elf_end(elf);
	}
	*elfp = dw ? elf : NULL;
	rwc_keepout_end();
	close(fd);
	return dw;
}

/* The table's module of F (found by find_phdr), or NULL. */
static struct rwc_dwmod *known(const struct dv_find *f)
{
	for (int i = 0; i < nmods; i++)
		if (mods[i].bias == f->bias && mods[i].name == f->name)
			return &mods[i];
	return NULL;
}

struct rwc_dwmod *rwc_dwmod_of(uintptr_t pc)
{
	struct dv_find f = {pc - 1, 0, NULL, NULL, 0, 0, 0};
	struct rwc_dwmod *m;

	dl_iterate_phdr(find_phdr, &f);
	if (!f.found)
		return NULL;
	if ((m = known(&f)))
		return m;
	if (nmods == NMOD)
		return NULL;
	m = &mods[nmods++];
	m->bias = f.bias;
	m->name = f.name;
	m->dw = open_dwarf(f.name && f.name[0] ? f.name : "/proc/self/exe", &f, pc, &m->elf);
	return m;
}

void rwc_dwmods_drop(void)
{
	for (int i = 0; i < nmods; i++)
		if (mods[i].dw) {
			L->dwarf_end(mods[i].dw);
			L->elf_end(mods[i].elf);
		}
	nmods = 0;
}
