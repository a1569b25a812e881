/* dwmods.h: the modules whose stack variables dwvars.c reads, each with
 * its DWARF (libdw, dwlib.h) opened at the first pc looked up in it, or
 * none where its file has none.  Kept for the process's life, dropped
 * together when the loader removed a module (dlclose: another module may
 * come to sit at the same addresses).  Under the report lock only
 * (rwc_load_lock, context.h: not in a signal handler); the first look
 * allocates (libdw, libelf) and maps the module's file, whose descriptor
 * is closed before returning. */
#ifndef RWC_DWMODS_H
#define RWC_DWMODS_H

#include <stdint.h>

#include "frames/dwlib.h"

/* A module: its load bias and the loader's name for it (the pointer is
 * its identity); dw NULL: no DWARF (elf NULL then too). */
struct rwc_dwmod {
	uintptr_t bias;
	const char *name;
	Elf *elf;
	Dwarf *dw;
};

/* The module holding PC (a return address: PC - 1 is looked up), its
 * DWARF read at the first look; NULL when PC is in no module or the table
 * is full. */
struct rwc_dwmod *rwc_dwmod_of(uintptr_t pc);

/* 1 once after the loader removed a module since the last call: the
 * caller forgets what it keeps by address, then calls rwc_dwmods_drop(). */
int rwc_dwmods_unloaded(void);

/* Ends every module's DWARF and empties the table. */
void rwc_dwmods_drop(void);

#endif
