/* checks.h: the pure checks — count, offset, iovec and memory-range
 * verdicts.  No system calls, no allocation, no global state: unit tests
 * call these directly. */
#ifndef RWC_CHECKS_H
#define RWC_CHECKS_H

#include "base/common.h"

#define RWC_PROT_R 1u
#define RWC_PROT_W 2u
#define RWC_PROT_X 4u
#define RWC_PROT_SHARED 8u

/* The needs (enum rwc_need) memory with RWC_PROT_* bits PROT serves. */
static inline unsigned rwc_prot_needs(unsigned prot)
{
	return ((prot & RWC_PROT_W) ? RWC_NEED_WRITE : 0) | ((prot & RWC_PROT_R) ? RWC_NEED_READ : 0);
}

/* One mapping: [start, end) with RWC_PROT_* bits. */
struct rwc_region {
	uintptr_t start, end;
	unsigned prot;
};

/* What a report says about a mapping; path is empty for anonymous ones. */
struct rwc_region_desc {
	int valid;
	uintptr_t start, end;
	uint64_t offset;
	unsigned prot;
	char path[256];
};

/* Extra facts about a region fed to the verdict (may be NULL). */
struct rwc_region_info {
	uint64_t offset;
	const char *path;
	size_t path_len;
};

/* Incremental verdict on [lo, lo+len): feed the mappings in address order
 * (those below lo too, so the gap below can be described); the state
 * records the first bad byte, the maximal run of bytes bad for the same
 * reason, and the mappings around it. */
struct rwc_verdict {
	uintptr_t lo, hi;
	unsigned need;
	uintptr_t cursor;           /* bytes below are explained */
	int done;
	enum rwc_problem problem;   /* RWC_OK while nothing is bad */
	uintptr_t bad_lo, bad_hi;   /* [bad_lo, bad_hi) */
	uintptr_t run_lo;           /* when good: the contiguous regions holding */
	unsigned run_prot;          /* [lo, hi) start at run_lo, with these common
	                             * RWC_PROT_* bits, and end at prev.end */
	struct rwc_region_desc prev; /* mapping just below the bad bytes */
	struct rwc_region_desc at;   /* mapping holding them (perm problem) */
	struct rwc_region_desc next; /* mapping just above a gap */
	int blind;                   /* RWC_OK for want of a map to read */
};

void rwc_verdict_init(struct rwc_verdict *v, uintptr_t lo, size_t len, unsigned need);
/* Returns 1 once no further region can change the verdict. */
int rwc_verdict_feed(struct rwc_verdict *v, const struct rwc_region *r,
		     const struct rwc_region_info *info);
void rwc_verdict_finish(struct rwc_verdict *v);

/* Whole verdict over a sorted array of regions (binary search). */
void rwc_verdict_array(struct rwc_verdict *v, const struct rwc_region *r, size_t n);
/* The same, feeding from index FROM: the first region that ends above
 * v->lo (or one before it, to describe a gap below). */
void rwc_verdict_run(struct rwc_verdict *v, const struct rwc_region *r, size_t n, size_t from);

/* What holds a buffer beyond its mapping: a malloc block (live or freed),
 * a stack variable (DWARF) or else its stack frame, a global object (the
 * module's symbol table).  bounds/ finds them; these verdicts are pure. */
enum rwc_holder {
	RWC_HOLDER_NONE,
	RWC_HOLDER_BLOCK,    /* heap-block */
	RWC_HOLDER_FREED,    /* freed-heap-block */
	RWC_HOLDER_FRAME,    /* stack-frame */
	RWC_HOLDER_VARIABLE, /* stack-variable */
	RWC_HOLDER_GLOBAL,   /* global */
};

struct rwc_bounds {
	enum rwc_holder kind;
	uintptr_t lo, hi;   /* the object: [lo, hi); block: its requested bytes;
	                     * frame: [sp, cfa) */
	uintptr_t limit;    /* frame: first saved register or return address above
	                     * the buffer, or cfa; others: hi */
	size_t usable;      /* block: glibc's usable size (>= hi - lo), 0 unknown */
	uintptr_t origin;   /* block: the site key (sites.h) that allocated it, or 0 */
	uintptr_t pc;       /* frame, variable: the frame's pc */
	int index;          /* frame, variable: 0 for the caller of the I/O call, 1 its caller... */
	/* Names: static storage or caches that live as long as the process;
	 * NULL when unknown. */
	const char *name;      /* variable, global: its name */
	const char *type;      /* variable, global: its C type ("char [16]"), or NULL */
	const char *decl_file; /* variable: where it is declared */
	int decl_line;
	const char *module;    /* global: the module that holds it */
	const char *into;      /* the neighbouring object the overrun reaches, or NULL */
	size_t compiler_size;  /* fortified calls: the object size the compiler saw, 0 none */
	const char *function;  /* variable: the function (or inlined function) it belongs to */
	const char *into_type; /* variable: the C type of into, or NULL */
	uintptr_t freed_at;    /* freed block: the site key (origin's kind) that freed it, or 0 */
	unsigned long freed_ago; /* freed block: held by the quarantine since this many frees
	                          * (1: the latest free); 0 not held */
};

/* A heap block as the heap check found it: where it starts, the bytes the
 * program asked for (size) and glibc's usable bytes (usable >= size; 0:
 * no block); after them, HEADER bytes that are the allocator's own (the
 * size word of the next chunk of a block inside a heap: 8; 0 none known). */
struct rwc_heap_block {
	uintptr_t start;
	size_t size, usable, header;
};

/* Heap verdict on [lo, lo+n): LIVE the nearest live block starting at or
 * below lo, FREED the nearest freed one (only when above LIVE's usable
 * bytes).  RWC_HEAP_OVERFLOW when lo lies in the live block's usable bytes
 * and the range runs past its requested ones, or in the allocator's header
 * bytes right after them (a buffer at the block's end: the next chunk's
 * size word); RWC_USE_AFTER_FREE when lo lies in the freed block; fills B
 * and the bad bytes [*bad_lo, *bad_hi). */
enum rwc_problem rwc_heap_verdict(uintptr_t lo, size_t n, const struct rwc_heap_block *live,
				  const struct rwc_heap_block *freed, struct rwc_bounds *b,
				  uintptr_t *bad_lo, uintptr_t *bad_hi);
/* Heap verdict on [lo, lo+n) that no block holds (rwc_heap_verdict said
 * nothing) but that runs into NEXT, the lowest live block starting above
 * lo (NEXT->usable 0: none): RWC_HEAP_OVERFLOW when the range reaches its
 * chunk's size word, 8 bytes below it (`read(fd, p - 8, 16)`), B that
 * block and the bad bytes from the size word (or lo) on; the word before
 * it is the previous chunk's to use. */
enum rwc_problem rwc_heap_underflow(uintptr_t lo, size_t n, const struct rwc_heap_block *next, struct rwc_bounds *b,
				    uintptr_t *bad_lo, uintptr_t *bad_hi);
/* Stack verdict on [lo, lo+n) held by the frame or the variable B (kind
 * RWC_HOLDER_FRAME or RWC_HOLDER_VARIABLE, whose limit is its hi):
 * RWC_STACK_OVERFLOW when the range reaches B->limit. */
enum rwc_problem rwc_stack_verdict(uintptr_t lo, size_t n, const struct rwc_bounds *b,
				   uintptr_t *bad_lo, uintptr_t *bad_hi);

enum rwc_problem rwc_check_count(size_t count);
static inline enum rwc_problem rwc_check_offset(int64_t offset, size_t count, int minus_one_ok)
{
	if (minus_one_ok && offset == -1)
		return RWC_OK;
	if (offset < 0)
		return RWC_OFFSET_NEGATIVE;
	if ((uint64_t)count > (uint64_t)INT64_MAX - (uint64_t)offset)
		return RWC_OFFSET_OVERFLOW;
	return RWC_OK;
}
enum rwc_problem rwc_check_iovcnt(long iovcnt);
/* Sums the segment lengths; RWC_IOV_LEN_OVERFLOW past SSIZE_MAX. */
enum rwc_problem rwc_check_iov_total(const struct iovec *iov, long iovcnt, size_t *total);

#endif
