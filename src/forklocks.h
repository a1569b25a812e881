/* forklocks.h: the locks a forked child must find free.  They live in a
 * page mapped with MADV_WIPEONFORK (init.c), so fork() gives the child
 * zeroes whatever another thread held; where the kernel lacks that, a
 * pthread_atfork child handler clears them.  vfork() children share the
 * parent's memory and see the parent's state, as they must. */
#ifndef RWC_FORKLOCKS_H
#define RWC_FORKLOCKS_H

#include "once.h"

struct rwc_forklocks {
	int snap_writer;          /* snapshot.c's writer try-lock */
	struct rwc_lock report;   /* report.c: one report at a time */
};

extern struct rwc_forklocks *rwc_forklocks;

#endif
