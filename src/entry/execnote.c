/* execnote.c: the wrapper's record of programs exec'd without the library
 * (see execnote.h).  The wrapper's RWCHECK_LOG and RWCHECK_FORMAT are read
 * from the environment the process started with (the constructor keeps
 * it): env -i clears environ before its execvp, and a process may exec
 * before its first checked call loads the knobs. */
#include "config.h"

#include "entry/execnote.h"
#include "base/common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/guard.h"
#include "base/log.h"
#include "base/real.h"

char **rwc_start_environ RWC_START_DATA;

static const char *start_env(const char *name)
{
	size_t n = strlen(name);

	for (char **e = rwc_start_environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

int rwc_exec_unchecked(char *const *envp)
{
	const char *f, *l;

	if (rwc_depth)
		return 0; /* the library's own */
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11) == 0 && strstr(envp[i] + 11, "librwcheck"))
			return 0;
	f = start_env("RWCHECK_FORMAT");
	l = start_env("RWCHECK_LOG");
	return f && strcmp(f, "json") == 0 && l && *l && strcmp(l, "stderr") != 0;
}

void rwc_exec_warm(void)
{
	static char *const env[] = {(char *)"LD_PRELOAD=", NULL}; /* names no library: the whole path */
	static int warm;

	if (!__atomic_load_n(&warm, __ATOMIC_RELAXED)) {
		(void)rwc_exec_unchecked(env);
		__atomic_store_n(&warm, 1, __ATOMIC_RELAXED);
	}
}

void rwc_exec_note(const char *path, pid_t pid)
{
	char buf[1024], file[PATH_MAX];
	struct rwc_fmt f;
	int first = 1, e = errno, fd;

	rwc_fmt_init(&f, buf, sizeof buf);
	rwc_fmt_char(&f, '{');
	rwc_fmt_json_key(&f, &first, "unchecked_exec");
	rwc_fmt_json_str(&f, path ? path : "?");
	rwc_fmt_json_key(&f, &first, "pid");
	rwc_fmt_i64(&f, (int64_t)pid);
	rwc_fmt_str(&f, "}\n");
	if (!f.truncated && rwc_log_expand(start_env("RWCHECK_LOG"), getpid(), file, sizeof file) == 0 &&
	    (fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600)) >= 0) {
		ssize_t w = REAL(write)(fd, buf, f.len);

		(void)w;
		close(fd);
	}
	errno = e;
}
