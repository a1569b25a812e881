/* victim_process.c: the victim's cases about the process around the
 * call (see victim.c, which runs them): threads, fork, signal handlers
 * (one interrupting malloc), a churning map, vfork and posix_spawn, the
 * descriptors and handlers left, a fork in the middle of a report. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <spawn.h>
#include <time.h>
#include <unistd.h>

#include "victim.h"
#include "victim_parts.h"

/* ---- threads: concurrent bad calls, one whole report each --------- */
static void *bad_writer(void *arg)
{
	char *b = arg;
	for (int i = 0; i < 25; i++)
		if (write(null_fd, b, N) < 0)
			break;
	return NULL;
}
static void c_threads(void)
{
	pthread_t t[4];
	char *b = buffer();
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, bad_writer, b);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ret = 0;
}

/* ---- fork: the child's report goes to its own log (%p) ------------ */
static void c_fork(void)
{
	char *b = buffer();
	pid_t pid = fork();
	if (pid == 0) {
		ret = write(null_fd, b, N);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("child %d\n", (int)pid);
	ret = write(null_fd, b, N);
}

/* ---- signals: a handler writing while threads read, write and churn */
static volatile sig_atomic_t alarms, stop_churn;
static char alarm_buf[64];
static char *alarm_bad; /* set for the bad variant: tail unmapped */

static void on_alarm(int sig)
{
	int e = errno;
	(void)sig;
	if (write(null_fd, alarm_bad ? alarm_bad : alarm_buf, alarm_bad ? N : sizeof alarm_buf) >= 0)
		alarms++;
	errno = e;
}

static void start_alarms(long usec)
{
	struct sigaction sa;
	struct itimerval it = {{0, usec}, {0, usec}};

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void stop_alarms(void)
{
	struct itimerval it = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &it, NULL);
}

static void *churner(void *arg)
{
	(void)arg;
	while (!stop_churn) {
		char *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		mprotect(p, 4096, PROT_READ);
		munmap(p, 65536);
	}
	return NULL;
}

static int pipe_fd[2];
static void *sequence_writer(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 200000; i++) {
		ssize_t w;
		do
			w = write(pipe_fd[1], &i, sizeof i);
		while (w < 0 && errno == EINTR);
		if (w != sizeof i)
			die("sequence write");
	}
	close(pipe_fd[1]);
	return NULL;
}

static void c_signals(void)
{
	pthread_t w, ch;
	unsigned x, expect = 0;
	ssize_t r;

	alarm_bad = bad ? buffer() : NULL;
	if (pipe(pipe_fd))
		die("pipe");
	start_alarms(bad ? 1000 : 200); /* (a bad alarm reports: ~0.3 ms on a slow machine, and alarms faster than that starve the reader) */
	pthread_create(&ch, NULL, churner, NULL);
	pthread_create(&w, NULL, sequence_writer, NULL);
	for (;;) {
		size_t got = 0;
		while (got < sizeof x) {
			r = read(pipe_fd[0], (char *)&x + got, sizeof x - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got == 0)
			break;
		if (got != sizeof x || x != expect)
			die("corrupted sequence");
		expect++;
	}
	stop_alarms();
	stop_churn = 1;
	pthread_join(w, NULL);
	pthread_join(ch, NULL);
	printf("sequence %u, alarms %s\n", expect, alarms > 10 ? "many" : "few");
	ret = 0;
}

/* ---- bad calls from a handler that interrupts malloc ------------- */
static void *watchdog(void *arg)
{
	sigset_t all;
	struct timespec t;

	/* No signal for this thread (sleep would end early), and a deadline
	 * rather than a duration. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += (long)arg;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0)
		;
	printf("watchdog: hung\n");
	_exit(77);
}

static void c_signal_malloc(void)
{
	double until;
	struct timespec t;
	pthread_t w;

	pthread_create(&w, NULL, watchdog, (void *)20L); /* a deadlock ends in exit 77 */
	alarm_bad = buffer();
	start_alarms(5000); /* leave the interrupted code time to progress */
	clock_gettime(CLOCK_MONOTONIC, &t);
	until = (double)t.tv_sec + t.tv_nsec / 1e9 + 0.5;
	do {
		for (int i = 0; i < 1000; i++)
			free(malloc((size_t)(i % 64) * 1024 + 1));
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)t.tv_sec + t.tv_nsec / 1e9 < until);
	stop_alarms();
	printf("alarms %s\n", alarms > 10 ? "many" : "few");
	ret = 0;
}

/* ---- a handler's first pwrite64 (the process's first: the library
 * binds the real one there) while the main thread dlopens and dlcloses,
 * the loader's lock held most of the time ---------------------------- */
static void on_alarm_pwrite(int sig)
{
	int e = errno;
	(void)sig;
	if (pwrite64(null_fd, alarm_buf, sizeof alarm_buf, 0) == (ssize_t)sizeof alarm_buf)
		alarms++;
	errno = e;
}

static void c_signal_dlopen(void)
{
	const char *plug = getenv("RWC_PLUGIN");
	struct sigaction sa;
	struct itimerval it = {{0, 3000}, {0, 3000}};
	struct timespec t;
	double until;
	pthread_t w;
	long loads = 0;

	pthread_create(&w, NULL, watchdog, (void *)20L); /* a deadlock ends in exit 77 */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm_pwrite;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	until = (double)t.tv_sec + t.tv_nsec / 1e9 + 0.5;
	do {
		void *h = dlopen(plug, RTLD_NOW);
		if (!h)
			die("dlopen");
		dlclose(h);
		loads++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)t.tv_sec + t.tv_nsec / 1e9 < until);
	stop_alarms();
	printf("alarms %s, loads %s\n", alarms > 10 ? "many" : "few", loads > 10 ? "many" : "few");
	ret = 0;
}

/* ---- threads doing I/O while another churns the map; seeded bad calls */
static char *seed_bad;
static void *io_worker(void *arg)
{
	long id = (long)arg;
	char stackbuf[256];
	char *heap = malloc(4096), *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/exe", O_RDONLY);
	char *file = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);

	for (int i = 0; i < 2000; i++) {
		if (pread(fd, stackbuf, sizeof stackbuf, 0) != sizeof stackbuf || pread(fd, heap, 4096, 0) != 4096 ||
		    pread(fd, map, 8192, 0) != 8192 || write(null_fd, file, 4096) != 4096)
			die("good io");
		if (i % 100 == 99 && pread(file_fd, seed_bad, N, 0) < 0) /* seeded: bytes 100.. unmapped */
			die("seeded");
	}
	(void)id;
	free(heap);
	return NULL;
}
static void c_churn(void)
{
	pthread_t t[3], ch;

	seed_bad = edge(PROT_NONE); /* a guard page: the churner cannot map over it */
	pthread_create(&ch, NULL, churner, NULL);
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, io_worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	stop_churn = 1;
	pthread_join(ch, NULL);
	ret = 0;
}

/* ---- vfork and posix_spawn from a multithreaded process ----------- */
static void *spinner(void *arg)
{
	char b[16];
	(void)arg;
	while (!stop_churn)
		if (read(file_fd, b, 1) < 0)
			break;
	return NULL;
}
static void c_vfork(void)
{
	pthread_t t;
	char *b = buffer();
	char *argv[] = {"victim", "write", "bad", NULL};
	pid_t pid;

	pthread_create(&t, NULL, spinner, NULL);
	pid = vfork();
	if (pid == 0) {
		if (write(null_fd, b, N) < 0) /* in the vfork child: reported, safely */
			_exit(1);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("vfork child %d\n", (int)pid);
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) == 0) {
		waitpid(pid, NULL, 0);
		printf("spawned child %d\n", (int)pid);
	}
	stop_churn = 1;
	pthread_join(t, NULL);
	ret = 0;
}

/* ---- the process keeps no descriptor and no handler of the library */
static void list_fds(const char *when)
{
	char path[64], target[256];
	printf("fds %s:", when);
	for (int fd = 0; fd < 64; fd++) {
		ssize_t n;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof target - 1);
		if (n > 0) {
			target[n] = '\0';
			if (fd == file_fd)
				strcpy(target, "(the test file)");
			printf(" %d=%s", fd, target);
		}
	}
	printf("\n");
}
static void c_fds(void)
{
	char *b = buffer();
	list_fds("before");
	ret = read(file_fd, b, N); /* bad: a report is written */
	list_fds("after");
}
static void c_closeall(void)
{
	char *b = buffer();
	for (int fd = 0; fd < 1024; fd++)
		if (fd != file_fd && fd != 1)
			close(fd);
	ret = read(file_fd, b, N); /* bad, with every other descriptor closed */
}
static void c_sigcgt(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	ret = read(file_fd, small, 10);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "SigCgt:", 7) == 0)
			printf("%s", line);
	if (f)
		fclose(f);
}

/* ---- fork while another thread is in the middle of a report -------- */
static void *slow_reporter(void *arg)
{
	char *b = arg;
	/* The first report loads libunwind and libdw: milliseconds under the
	 * report lock, while the main thread forks. */
	for (int i = 0; i < 20 && !stop_churn; i++)
		if (write(null_fd, b + i, N) < 0)
			break;
	return NULL;
}
static void c_fork_during_report(void)
{
	pthread_t t;
	char *b = buffer();
	int hung = 0;

	pthread_create(&t, NULL, slow_reporter, b - 64);
	for (int i = 0; i < 20; i++) {
		pid_t pid = fork();
		int st = 0;
		if (pid == 0) {
			alarm(20); /* a hang in the child would end it by SIGALRM */
			ret = write(null_fd, b, N); /* bad: needs the report path */
			_exit(0);
		}
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			hung++;
	}
	stop_churn = 1;
	pthread_join(t, NULL);
	printf("children that did not finish cleanly: %d\n", hung);
	ret = 0;
}

const struct victim_case victim_process_cases[] = {
	VCASE(threads), VCASE(fork), VCASE(signals), VCASE(signal_malloc), VCASE(signal_dlopen), VCASE(churn), VCASE(vfork),
	VCASE(fds), VCASE(closeall), VCASE(sigcgt), VCASE(fork_during_report),
};
const size_t victim_process_ncases = sizeof victim_process_cases / sizeof victim_process_cases[0];
