/* exec-child.c: starts PROG one way, with an explicit environment that
 * holds LD_PRELOAD=LIB (the rest of its environment otherwise), or through
 * environ (system), or forks and makes bad-child's bad call itself (tests
 * of --trace-children, tests/wrapper-trace.sh).
 *   exec-child MODE LIB PROG
 * MODE: execve execle execvpe fexecve posix_spawn posix_spawnp vfork
 *       system fork-bad.  Exit status: the child's, or 2 on a failure. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* environ without its LD_PRELOAD, and LD_PRELOAD=LIB */
static char **env_with(const char *lib)
{
	size_t n = 0, k = 0;
	char **e;

	while (environ[n])
		n++;
	if (!(e = calloc(n + 2, sizeof *e)) || asprintf(&e[k++], "LD_PRELOAD=%s", lib) < 0)
		exit(2);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
			e[k++] = environ[i];
	return e;
}

/* bad-child's call: a read whose tail is unmapped */
static int bad_call(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/cmdline", O_RDONLY);

	munmap(p + 4096, 4096);
	return pread(fd, p + 4096 - 100, 4096, 0) < 0 ? 2 : 0;
}

static int wait_for(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char *args[] = {argc > 3 ? argv[3] : "", NULL}, **env;
	pid_t pid;
	int fd;

	if (strcmp(mode, "fork-bad") == 0)
		return (pid = fork()) == 0 ? bad_call() : wait_for(pid);
	if (argc != 4)
		return fprintf(stderr, "usage: exec-child MODE LIB PROG\n"), 2;
	env = env_with(argv[2]);
	if (strcmp(mode, "execve") == 0)
		execve(argv[3], args, env);
	else if (strcmp(mode, "execle") == 0)
		execle(argv[3], argv[3], (char *)NULL, env);
	else if (strcmp(mode, "execvpe") == 0)
		execvpe(argv[3], args, env);
	else if (strcmp(mode, "fexecve") == 0) {
		if ((fd = open(argv[3], O_RDONLY)) >= 0)
			fexecve(fd, args, env);
	} else if (strcmp(mode, "posix_spawn") == 0)
		return posix_spawn(&pid, argv[3], NULL, NULL, args, env) ? 2 : wait_for(pid);
	else if (strcmp(mode, "posix_spawnp") == 0)
		return posix_spawnp(&pid, argv[3], NULL, NULL, args, env) ? 2 : wait_for(pid);
	else if (strcmp(mode, "vfork") == 0) {
		if ((pid = vfork()) == 0) {
			execve(argv[3], args, env);
			_exit(2);
		}
		return wait_for(pid);
	} else if (strcmp(mode, "system") == 0) {
		int st = system(argv[3]);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
	}
	perror(mode);
	return 2;
}
