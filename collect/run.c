/* run.c: the wrapper's supervisor (rwcheck-collect --run).  Starts the
 * command with the library preloaded, in a process group of its own
 * (unless the wrapper is the foreground job of a terminal: then the
 * command stays in the wrapper's group, so that it keeps the terminal);
 * forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to that group; follows the
 * log directory while the command runs, so that each report is printed as
 * it comes; ignores SIGPIPE (the reader of its output may go first);
 * returns the command's status as a shell gives it (128+n when a signal
 * ended it).  The signal handler only calls kill(2).  The wrapper is the
 * subreaper of the command's tree: a process orphaned inside it (a
 * daemon's double fork, `sh -c 'cmd &'`) is reparented to the wrapper,
 * which reaps it and, once the command is done, waits up to GRACE_MS for
 * such processes to end, following their reports. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

static volatile sig_atomic_t child_pid, child_group, last_signal;
/* SIGPIPE as the wrapper found it: the wrapper ignores it (a reader of
 * its output that goes away, `rwcheck -- cmd 2>&1 | head -1`, must not
 * kill it while the command runs: it still waits, exits with the
 * command's status and cleans up); the command gets it back. */
static struct sigaction pipe_was;

static void forward(int sig)
{
	int e = errno;

	last_signal = sig;
	if (child_pid > 0)
		kill(child_group ? -child_pid : child_pid, sig);
	errno = e;
}

/* Is the wrapper the foreground job of its terminal? */
static int terminal_foreground(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd))
			return tcgetpgrp(fd) == getpgrp();
	return 0;
}

/* LD_PRELOAD for the command: the library first, then what was there. */
static void set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n;
	char *v;

	if (old && strstr(old, lib)) /* (a nested wrapper's: once is enough) */
		return;
	n = strlen(lib) + (old ? strlen(old) : 0) + 2;
	v = malloc(n);

	if (!v)
		return;
	snprintf(v, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
	setenv("LD_PRELOAD", v, 1);
	free(v);
}

/* ASan-built programs refuse a library preloaded before its runtime
 * unless told not to check the order (rwcheck then checks their calls
 * after ASan's interceptors). */
static void asan_accepts(void)
{
	const char *old = getenv("ASAN_OPTIONS");
	char *v;

	if (old && strstr(old, "verify_asan_link_order"))
		return;
	if (asprintf(&v, "%s%sverify_asan_link_order=0", old ? old : "", old && *old ? ":" : "") < 0)
		return;
	setenv("ASAN_OPTIONS", v, 1);
	free(v);
}

static void start_child(char **argv, const char *lib, int own_group)
{
	int e;

	for (size_t i = 0; i < NFORWARDED; i++)
		signal(forwarded[i], SIG_DFL);
	sigaction(SIGPIPE, &pipe_was, NULL);
	if (own_group)
		setpgid(0, 0);
	set_preload(lib);
	asan_accepts();
	execvp(argv[0], argv);
	e = errno;
	say("error", "%s: %s", argv[0], strerror(e)); /* ({"error": ...} under --format=json) */
	_exit(e == ENOENT ? 127 : 126);
}

/* 50 ms between two looks at the log and the process tree, or until the
 * command ends (PIDFD: its pidfd, -1 without one, then the whole 50 ms):
 * a short command is not kept waiting.  A forwarded signal ends it early:
 * fine. */
static void nap(int pidfd)
{
	struct timespec ts = {0, 50L * 1000 * 1000};
	struct pollfd p = {pidfd, POLLIN, 0};

	if (pidfd < 0 || poll(&p, 1, 50) < 0)
		nanosleep(&ts, NULL);
}

/* The command's pidfd (close-on-exec by the kernel's rule), or -1 where
 * the kernel has none (before 5.3) or a filter refuses it. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* The orphans adopted (see above) that have ended, reaped; never the
 * command itself (its status is waitpid(pid)'s). */
static void reap_orphans(pid_t pid)
{
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0 || si.si_pid == pid)
			return;
		waitpid(si.si_pid, NULL, 0);
	}
}

/* After the command: up to GRACE_MS for the processes it left behind to
 * end (none left: at once), their reports followed.  A daemon that runs on
 * is left running; its later reports go to the log directory only. */
#define GRACE_MS 1000
static void wait_orphans(struct follow *fl)
{
	for (int ms = 0; ms < GRACE_MS && !last_signal; ms += 20) {
		pid_t r = waitpid(-1, NULL, WNOHANG);

		if (r < 0 && errno != EINTR)
			return; /* (ECHILD: no child left) */
		if (r > 0)
			continue;
		if (fl->pt)
			ptree_scan(fl->pt);
		follow_scan(fl);
		poll(NULL, 0, 20);
	}
}

int run_command(char **argv, const char *lib, struct follow *fl)
{
	int own_group = !terminal_foreground(), st = 0, pidfd;
	struct sigaction sa;
	pid_t pid, r;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &pipe_was);
	ptree_check_exe(argv[0]);
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L); /* (before 3.4: no adoption) */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rwcheck: cannot start %s: %s\n", argv[0], strerror(errno));
		return 126;
	}
	if (pid == 0)
		start_child(argv, lib, own_group);
	if (own_group)
		setpgid(pid, pid); /* (both sides: whichever runs first) */
	child_group = own_group;
	child_pid = pid;
	if (last_signal) /* came before child_pid was known */
		kill(own_group ? -pid : pid, last_signal);
	if (fl->pt)
		fl->pt->root = pid;
	pidfd = open_pidfd(pid);
	for (unsigned k = 0; (r = waitpid(pid, &st, WNOHANG)) == 0 || (r < 0 && errno == EINTR); k++) {
		if (fl->pt && k % 2 == 0)
			ptree_scan(fl->pt);
		follow_scan(fl);
		nap(pidfd);
		reap_orphans(pid);
	}
	if (pidfd >= 0)
		close(pidfd);
	child_pid = 0;
	if (r == pid)
		wait_orphans(fl);
	follow_scan(fl);
	if (r < 0)
		return 126;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	if (WEXITSTATUS(st) == 0 && last_signal)
		return 128 + last_signal;
	return WEXITSTATUS(st);
}

int run_signal(void)
{
	return last_signal;
}
