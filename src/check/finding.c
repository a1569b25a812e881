/* finding.c: a finding emptied, and what kind one is (see finding.h).  Pure: no
 * allocation, signal-safe. */
#include "config.h"

#include "check/finding.h"

int rwc_is_memory_problem(const struct rwc_finding *f)
{
	return f->v.problem != RWC_OK &&
	       (f->problem == RWC_BUF_UNMAPPED || f->problem == RWC_BUF_NOT_WRITABLE ||
		f->problem == RWC_BUF_NOT_READABLE || f->problem == RWC_IOV_ARRAY_BAD);
}

int rwc_is_bounds_problem(const struct rwc_finding *f)
{
	return (f->problem == RWC_HEAP_OVERFLOW || f->problem == RWC_STACK_OVERFLOW ||
		f->problem == RWC_GLOBAL_OVERFLOW || f->problem == RWC_USE_AFTER_FREE) &&
	       f->bounds.kind != RWC_HOLDER_NONE;
}

void rwc_finding_init(struct rwc_finding *f, const void *buf, size_t count)
{
	f->problem = RWC_OK;
	f->what = "buf";
	f->iov_index = -1;
	f->buf = buf;
	f->count = count;
	f->total = 0;
	f->v.problem = RWC_OK;
	f->bounds.kind = RWC_HOLDER_NONE;
	f->bounds.origin = 0; /* (the report symbolizes what is there) */
	f->bounds.freed_at = 0;
	f->origin = NULL;
	f->norigin = 0;
	f->freed_at = NULL;
	f->nfreed_at = 0;
	f->msg_index = -1;
	f->offset_what = NULL;
}
