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

#include "frames/dwprobe.h"
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

int rwc_dwmods_unloaded(void)
{
	struct rwc_dw_module m = {0};
	int changed;

	rwc_dw_module_of(0, &m); /* the loader's removal count */
	changed = m.subs != subs_seen;
	subs_seen = m.subs;
	return changed;
}

/* Maps the module F's file at PATH, which has DWARF (dwprobe.h), and
 * reads it: NULL when it cannot. */
static Dwarf *open_dwarf(const char *path, const struct rwc_dw_module *f, uintptr_t pc, Elf **elfp)
{
	Elf *elf;
	Dwarf *dw = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*elfp = NULL;
	if (fd < 0)
		return NULL;
	/* the file libdw reads is the module (not another one put at its path
	 * since the probe: the executable's kernel link always is) */
	if ((f->name && f->name[0] && !rwc_dw_same_file(fd, f->phdr, f->phnum)) || !rwc_room_for_libdw(&pc, 1) ||
	    !(L || (L = rwc_dwlib()))) {
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

/* The table's module of F, or NULL. */
static struct rwc_dwmod *known(const struct rwc_dw_module *f)
{
	for (int i = 0; i < nmods; i++)
		if (mods[i].bias == f->bias && mods[i].name == f->name)
			return &mods[i];
	return NULL;
}

struct rwc_dwmod *rwc_dwmod_of(uintptr_t pc)
{
	struct rwc_dw_module f = {0};
	struct rwc_dwmod *m;
	int has;

	if (!rwc_dw_module_of(pc - 1, &f))
		return NULL;
	if ((m = known(&f)))
		return m;
	if (nmods == NMOD || (has = rwc_dwprobe_at(pc)) < 0)
		return NULL; /* (not known now: asked again at the next look) */
	m = &mods[nmods++];
	m->bias = f.bias;
	m->name = f.name;
	m->dw = has ? open_dwarf(f.name && f.name[0] ? f.name : "/proc/self/exe", &f, pc, &m->elf) : NULL;
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
