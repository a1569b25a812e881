/* dedup.c: reporting each call site once (see dedup.h).  Lock-free (one
 * compare-and-swap claims a slot); no allocation; signal-safe. */
#include "config.h"

#include "report/dedup.h"
#include "base/common.h"

#include <unistd.h>

#include "base/checks.h"
#include "base/entry_id.h"
#include "base/fmt.h"
#include "base/knobs.h"
#include "base/log.h"
#include "base/ownmem.h"
#include "frames/stackwalk.h"

_Static_assert(RWC_PROBLEM_COUNT <= 256, "a problem fits in a site key's low byte");

/* The site's id (key and callers together) is claimed in one
 * compare-and-swap, and every bad call, the claimer's too, adds to the
 * count: a call from the same site in another thread never sees half a
 * claim, so it never takes a second slot for the site nor loses a count.
 * The key, for the names in the exit-time count, is stored after the
 * claim (a slot whose key is still 0 is not counted at exit). */
static uint64_t site_id(uint64_t key, uint64_t callers)
{
	uint64_t h = (key ^ (callers * 0xff51afd7ed558ccdu)) * 0xc4ceb9fe1a85ec53u;

	h ^= h >> 33;
	return h ? h : 1;
}

struct rwc_site *rwc_dedup_hit(uintptr_t pc, uint64_t callers, unsigned entry, unsigned problem, int *first)
{
	uint64_t key = RWC_SITE_KEY(pc, entry, problem), id = site_id(key, callers);
	/* Fibonacci hashing: the top bits of id * 2^64/phi. */
	uintptr_t h = (uintptr_t)((id * 0x9e3779b97f4a7c15u) >> (64 - __builtin_ctz(RWC_SITES)));

	*first = 1;
	if (!rwc_knobs.dedup || pc == 0 || (uint64_t)pc >= RWC_SITE_PC_LIMIT)
		return NULL;
	for (unsigned i = 0; i < RWC_SITES; i++) {
		struct rwc_site *s = &rwc_perproc->sites[(h + i) & (RWC_SITES - 1)];
		uint64_t cur = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE), zero = 0;

		if (cur == 0) {
			if (__atomic_compare_exchange_n(&s->id, &zero, id, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
				__atomic_add_fetch(&rwc_perproc->nsites, 1, __ATOMIC_RELEASE);
				__atomic_add_fetch(&s->count, 1, __ATOMIC_ACQ_REL);
				return s;
			}
			cur = zero; /* someone else claimed it: look again */
		}
		if (cur == id) {
			__atomic_add_fetch(&s->count, 1, __ATOMIC_ACQ_REL);
			*first = 0;
			return s;
		}
	}
	return NULL; /* full: report every call */
}

uint64_t rwc_dedup_callers(uintptr_t fp, uintptr_t sp0, uintptr_t pc)
{
	uintptr_t pcs[RWC_DEDUP_FRAMES];
	int max = rwc_knobs.backtrace < 1 ? 1 : rwc_knobs.backtrace > RWC_DEDUP_FRAMES ? RWC_DEDUP_FRAMES : rwc_knobs.backtrace;
	int n;
	uint64_t h = 0;

	n = rwc_frames_callers(fp, sp0, pc, pcs, max);
	for (int i = 1; i < n; i++)
		h = (h ^ pcs[i]) * 0x100000001b3u;
	return h;
}

/* The system calls' names as one pool and offsets: read-only data the
 * loader never relocates. */
static const struct sys_pool {
#define RWC_SYSNAME_(s) char s_##s[sizeof #s];
	RWC_SYSCALLS_CHECKED(RWC_SYSNAME_)
#undef RWC_SYSNAME_
} sys_pool = {
#define RWC_SYSNAME_(s) #s,
	RWC_SYSCALLS_CHECKED(RWC_SYSNAME_)
#undef RWC_SYSNAME_
};

static const unsigned short sys_off[] = {
#define RWC_SYSNAME_(s) offsetof(struct sys_pool, s_##s),
	RWC_SYSCALLS_CHECKED(RWC_SYSNAME_)
#undef RWC_SYSNAME_
};

_Static_assert(sizeof(struct sys_pool) <= 0xffff, "16-bit offsets");

/* The entry point a key names: the call's name, and for syscall() the
 * system call's (else NULL). */
static const char *entry_name(unsigned entry, const char **sysname)
{
	*sysname = NULL;
	if (entry < RWC_REAL_COUNT)
		return rwc_real_name(entry);
	if (entry - RWC_REAL_COUNT < sizeof sys_off / sizeof sys_off[0])
		*sysname = (const char *)&sys_pool + sys_off[entry - RWC_REAL_COUNT];
	return "syscall";
}

static void flush_one(const struct rwc_site *s, unsigned more)
{
	uint64_t key = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
	const char *sysname, *call = entry_name(RWC_SITE_ENTRY(key), &sysname);
	char buf[512];
	struct rwc_fmt o;

	rwc_fmt_init(&o, buf, sizeof buf);
	if (rwc_knobs.format == RWC_FORMAT_JSON) {
		rwc_fmt_str(&o, "{\"repeat\":");
		rwc_fmt_u64(&o, more);
		rwc_fmt_str(&o, ",\"call\":");
		rwc_fmt_json_str(&o, call);
		if (sysname) {
			rwc_fmt_str(&o, ",\"syscall\":");
			rwc_fmt_json_str(&o, sysname);
		}
		rwc_fmt_str(&o, ",\"problem\":");
		rwc_fmt_json_str(&o, rwc_problem_name((enum rwc_problem)RWC_SITE_PROBLEM(key)));
		rwc_fmt_str(&o, ",\"pid\":");
		rwc_fmt_i64(&o, getpid());
		rwc_fmt_str(&o, ",\"caller\":\"");
		rwc_fmt_hex(&o, RWC_SITE_PC(key));
		rwc_fmt_str(&o, "\",\"site\":\"");
		rwc_fmt_hex(&o, s->id);
		rwc_fmt_str(&o, "\",\"suppressed\":");
		rwc_fmt_str(&o, s->suppressed ? "true" : "false");
		rwc_fmt_str(&o, "}\n");
	} else {
		rwc_log_prefix(&o);
		rwc_fmt_u64(&o, more);
		rwc_fmt_str(&o, more == 1 ? " more bad call " : " more bad calls ");
		rwc_fmt_str(&o, "like the one reported above from ");
		rwc_fmt_hex(&o, RWC_SITE_PC(key));
		rwc_fmt_str(&o, " (");
		rwc_fmt_str(&o, call);
		if (sysname) {
			rwc_fmt_str(&o, " SYS_");
			rwc_fmt_str(&o, sysname);
		}
		rwc_fmt_str(&o, ", ");
		rwc_fmt_str(&o, rwc_problem_name((enum rwc_problem)RWC_SITE_PROBLEM(key)));
		rwc_fmt_str(&o, ")\n");
	}
	rwc_log_write(buf, o.len);
}

RWC_START_CODE void rwc_dedup_flush(void)
{
	/* Nothing to say: and no page of the table is touched (before the
	 * first need, the table is in .bss: a page fault at every exit). */
	if (!rwc_ownmem_used() || !__atomic_load_n(&rwc_perproc->nsites, __ATOMIC_ACQUIRE))
		return;
	for (unsigned i = 0; i < RWC_SITES; i++) {
		struct rwc_site *s = &rwc_perproc->sites[i];
		unsigned n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&s->key, __ATOMIC_ACQUIRE) && n > 1 && !s->suppressed) {
			flush_one(s, n - 1);
			__atomic_store_n(&s->count, 1, __ATOMIC_RELEASE);
		}
	}
}
