/* perproc.h: state that belongs to one process and that a forked child
 * must start afresh: the library's locks (a child must find them free
 * whatever another thread held) and the table of reported call sites
 * (each process reports a site once).  It lives in memory mapped with
 * MADV_WIPEONFORK at the library's first need (ownmem.c), so fork() hands
 * the child zeroes.  (Where the kernel lacks that, before Linux 4.14, or
 * the memory could not be mapped, it stays in the library's .bss and the
 * library's fork() clears it in the child.)  vfork() children share the parent's memory
 * and state, as they must. */
#ifndef RWC_PERPROC_H
#define RWC_PERPROC_H

#include <stdint.h>
#include <sys/types.h>

#include "base/once.h"

#define RWC_SITES 1024 /* power of two */

/* One call site that made a bad call: the caller's return address, the
 * entry point (entry_id.h), the problem and the caller's own callers (a
 * helper that calls read for two callers is two sites, as the wrapper
 * groups them), claimed together in one compare-and-swap of their hash;
 * reported once, then counted. */
struct rwc_site {
	uint64_t id;          /* the hash of key and callers (never 0); 0: free slot */
	uint64_t key;         /* RWC_SITE_KEY(pc, entry, problem), stored after the claim */
	unsigned count;       /* bad calls seen, the reported one included */
	int suppressed;       /* a suppression matched its report */
};

/* The caller in bits 16..63, the entry point in 8..15, the problem in 0..7.
 * A return address at or above RWC_SITE_PC_LIMIT (2^48: above every Linux
 * ABI's default user address space) has no key; a pc of 0 neither. */
#define RWC_SITE_PC_LIMIT ((uint64_t)1 << 48)
#define RWC_SITE_KEY(pc, entry, problem) \
	((uint64_t)(pc) << 16 | ((uint64_t)(entry) & 0xff) << 8 | ((uint64_t)(problem) & 0xff))
#define RWC_SITE_PC(key) ((uintptr_t)((key) >> 16))
#define RWC_SITE_ENTRY(key) ((unsigned)((key) >> 8 & 0xff))
#define RWC_SITE_PROBLEM(key) ((unsigned)((key) & 0xff))

struct rwc_perproc {
	pid_t owner;          /* the process this memory is the state of */
	int snap_writer;      /* snapshot.c's writer try-lock */
	struct rwc_lock report; /* report.c: one report at a time */
	unsigned nsites;      /* sites claimed */
	struct rwc_site sites[RWC_SITES];
};

extern struct rwc_perproc *rwc_perproc;

#endif
