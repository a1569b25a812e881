/* rawframes.c: modules of raw frames, and the signal-handler test (see
 * rawframes.h).  Async-signal-safe: open, read, close, sigprocmask,
 * sigaction; no allocation. */
#include "config.h"

#include "rawframes.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "maps_parse.h"
#include "mapview.h"
#include "real.h"

struct ctx {
	struct rwc_frame *fr;
	int n;
};

static int place(const struct rwc_map_entry *e, void *arg)
{
	struct ctx *c = arg;

	for (int i = 0; i < c->n; i++) {
		struct rwc_frame *f = &c->fr[i];
		size_t len = e->path_len < sizeof f->module - 1 ? e->path_len : sizeof f->module - 1;

		if (f->module[0] || f->pc - 1 < e->start || f->pc - 1 >= e->end || !len)
			continue;
		memcpy(f->module, e->path, len);
		f->module[len] = '\0';
		f->module_off = f->pc - (e->start - (uintptr_t)e->offset);
	}
	return 0;
}

void rwc_raw_modules(struct rwc_frame *fr, int n)
{
	struct ctx c = {fr, n};
	char buf[2048];
	int fd = rwc_map_open();

	if (fd < 0)
		return;
	rwc_maps_scan(fd, rwc_read_real, buf, sizeof buf, place, &c, NULL);
	close(fd);
}

int rwc_maybe_in_handler(void)
{
	sigset_t blocked;

	if (sigprocmask(SIG_BLOCK, NULL, &blocked) != 0)
		return 1;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;

		if (sigismember(&blocked, s) == 1 && sigaction(s, NULL, &sa) == 0 &&
		    ((sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)))
			return 1;
	}
	return 0;
}
