/* dwprobe.h: does a module's file have DWARF?  The module that holds a pc
 * (the loader's list, dl_iterate_phdr), its file's headers and section
 * names read with pread at its first look (no libdw), the answer kept for
 * the process's life and forgotten when the loader removed a module
 * (dlclose: another may come to sit at the same addresses).  It needs
 * none of the library's memory nor its locks, only one try-lock of its
 * own: the stack check asks it before it takes the load lock, so a
 * process whose frames have no DWARF maps neither the library's memory
 * nor its stack for them.  A module asked about before is answered
 * without a lock or a system call (by its link map); a new one not in a
 * signal handler (the loader's list lock) nor in a vfork child: there
 * the answer is "not known". */
#ifndef RWC_DWPROBE_H
#define RWC_DWPROBE_H

#include <link.h>
#include <stdint.h>

/* A module of the loader's list: its load bias, its name (the pointer is
 * its identity), its program headers; and the loader's removal count. */
struct rwc_dw_module {
	uintptr_t bias;
	const char *name;
	const ElfW(Phdr) *phdr;
	int phnum;
	unsigned long long subs;
};

/* The module whose image holds A: 1 (M), or 0; A 0 fills M->subs only. */
int rwc_dw_module_of(uintptr_t a, struct rwc_dw_module *m);

/* The module holding PC - 1 (a return address): 1 its file has a
 * .debug_info section, 0 it has none (or no module holds PC, or its file
 * cannot be opened), -1 not known now (a signal handler, a vfork child,
 * another thread probing). */
int rwc_dwprobe_at(uintptr_t pc);

/* In a fork() child (entry/fork.c): a probe another thread of the parent
 * was making is not this process's. */
void rwc_dwprobe_forked(void);

/* Whether the ELF file open at FD is the module loaded with the program
 * headers PH[0..PHNUM) (not another one put at its path since). */
int rwc_dw_same_file(int fd, const ElfW(Phdr) *ph, int phnum);

#endif
