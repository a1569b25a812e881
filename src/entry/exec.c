/* exec.c: RWCHECK_TRACE_CHILDREN=no — only the process the knob reaches
 * first is checked (with its fork children: the same program); what it
 * execs or spawns runs without the library.  Its constructor takes the
 * library's entry out of LD_PRELOAD in environ and the knob out of environ
 * (exec*, posix_spawn*, system(), popen() and the program's own copies of
 * its environment start from there); the wrappers here take the entry out
 * of an explicit environment handed to execve, execle, execvpe, fexecve,
 * posix_spawn or posix_spawnp.  Without the knob each wrapper is a load
 * and a tail call.
 * Signal- and vfork-safe: no lock, nothing allocated in the program's heap
 * (the copy of an explicit environment is on the stack, one of more than
 * ENV_STACK bytes in an own mapping; the program's arrays and strings are
 * never written); errno as the real call leaves it. */
#include "config.h"

#include "entry/exec.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/common.h"
#include "base/real.h"
#include "base/symscope.h"
#include "entry/execnote.h"
#include "mapview/ownmap.h"

extern char **environ;

#define ENV_STACK 16384 /* bytes of stack a copy may take (a vfork child's too) */
#define PRELOAD "LD_PRELOAD="
#define PRELOAD_LEN (sizeof PRELOAD - 1)
#define KNOB "RWCHECK_TRACE_CHILDREN="

static int notrace;           /* 1: the knob said no to this process */
static const char *self_base; /* the library's file name, after the last '/' */
static dev_t self_dev;
static ino_t self_ino;        /* 0: not known */

/* Is the LD_PRELOAD entry E (N bytes) this library: its file name, or
 * (a path) the same file? */
static int is_self(const char *e, size_t n)
{
	const char *b = memrchr(e, '/', n);
	char path[PATH_MAX];
	struct stat st;

	b = b ? b + 1 : e;
	if (n - (size_t)(b - e) == strlen(self_base) && memcmp(b, self_base, strlen(self_base)) == 0)
		return 1;
	if (!self_ino || b == e || n >= sizeof path)
		return 0;
	memcpy(path, e, n);
	path[n] = '\0';
	return stat(path, &st) == 0 && st.st_dev == self_dev && st.st_ino == self_ino;
}

/* LD_PRELOAD's value V without this library's entries, into OUT (at most
 * strlen(V) + 1 bytes; OUT may be V itself), the others joined by ':' (the
 * loader's separators are ':' and ' ').  OUT NULL: only whether V holds
 * the library. */
static int strip(const char *v, char *out)
{
	size_t o = 0, n;
	int hit = 0;

	for (; *v; v += n + (v[n] != '\0')) {
		n = strcspn(v, " :");
		if (!n)
			continue;
		if (is_self(v, n)) {
			hit = 1;
			continue;
		}
		if (!out)
			continue;
		if (o)
			out[o++] = ':';
		memmove(out + o, v, n); /* (o never passes v: entries only go) */
		o += n;
	}
	if (out)
		out[o] = '\0';
	return hit;
}

static int is_preload(const char *e)
{
	return strncmp(e, PRELOAD, PRELOAD_LEN) == 0;
}

/* Bytes a copy of ENVP without the library takes: the array and each
 * LD_PRELOAD string; 0 when ENVP does not hold the library. */
static size_t env_need(char *const *envp)
{
	size_t n = 0, s = 0;
	int hit = 0;

	for (; envp && envp[n]; n++)
		if (is_preload(envp[n])) {
			s += strlen(envp[n]) + 1;
			hit |= strip(envp[n] + PRELOAD_LEN, NULL);
		}
	return hit ? (n + 1) * sizeof(char *) + s : 0;
}

/* ENVP copied into MEM (env_need bytes) without the library; an LD_PRELOAD
 * left empty is left out. */
static char **env_copy(char *const *envp, void *mem)
{
	char **e = mem, *s;
	size_t n = 0, k = 0;

	while (envp[n])
		n++;
	s = (char *)(e + n + 1);
	for (size_t i = 0; i < n; i++) {
		if (!is_preload(envp[i])) {
			e[k++] = envp[i];
			continue;
		}
		memcpy(s, PRELOAD, PRELOAD_LEN);
		strip(envp[i] + PRELOAD_LEN, s + PRELOAD_LEN);
		if (s[PRELOAD_LEN]) {
			e[k++] = s;
			s += strlen(s) + 1;
		}
	}
	e[k] = NULL;
	return e;
}

/* The real call, with its arguments (one struct for all of them). */
struct xcall {
	int (*fn)(const struct xcall *x, char *const *envp);
	const char *path;
	char *const *argv;
	int fd;
	pid_t *pid;
	const posix_spawn_file_actions_t *actions;
	const posix_spawnattr_t *attr;
};

/* X's real call with ENVP, or with a copy without the library. */
static int with_env(const struct xcall *x, char *const *envp)
{
	int e = errno, r;
	size_t need = env_need(envp);
	void *m;

	errno = e; /* (is_self's stat) */
	if (!need)
		return x->fn(x, envp);
	if (need <= ENV_STACK) {
		void *buf[(need + sizeof(void *) - 1) / sizeof(void *)];
		return x->fn(x, env_copy(envp, buf));
	}
	/* (In a vfork child whose exec succeeds this mapping stays with the
	 * parent: an environment of more than ENV_STACK bytes, rare.) */
	if (!(m = rwc_own_mmap(need)))
		return x->fn(x, envp); /* no memory: the child keeps the library */
	r = x->fn(x, env_copy(envp, m));
	e = errno;
	rwc_own_munmap(m, need);
	errno = e;
	return r;
}

static void drop(char **env, size_t i)
{
	do
		env[i] = env[i + 1];
	while (env[i++]);
}

void rwc_exec_start(const char *value)
{
	const struct link_map *m = rwc_sym_self();
	int e = errno;
	struct stat st;
	char *c;

	if (strcmp(value, "no") != 0 || !m || !m->l_name || !*m->l_name)
		return;
	self_base = strrchr(m->l_name, '/') ? strrchr(m->l_name, '/') + 1 : m->l_name;
	if (stat(m->l_name, &st) == 0) {
		self_dev = st.st_dev;
		self_ino = st.st_ino;
	}
	notrace = 1;
	for (size_t i = 0; environ && environ[i];) {
		if (strncmp(environ[i], KNOB, sizeof KNOB - 1) == 0) {
			drop(environ, i);
			continue;
		}
		if (is_preload(environ[i]) && strip(environ[i] + PRELOAD_LEN, NULL)) {
			/* A copy (the kernel's /proc/PID/environ keeps the original);
			 * without memory, the original itself. */
			const char *v = environ[i] + PRELOAD_LEN;
			if ((c = rwc_own_mmap(strlen(environ[i]) + 1)))
				environ[i] = memcpy(c, PRELOAD, PRELOAD_LEN);
			strip(v, environ[i] + PRELOAD_LEN);
			if (!environ[i][PRELOAD_LEN]) {
				drop(environ, i);
				continue;
			}
		}
		i++;
	}
	errno = e;
}

static int real_execve(const struct xcall *x, char *const *envp)
{
	return REAL(execve)(x->path, x->argv, envp);
}

static int real_execvpe(const struct xcall *x, char *const *envp)
{
	return REAL(execvpe)(x->path, x->argv, envp);
}

static int real_fexecve(const struct xcall *x, char *const *envp)
{
	return REAL(fexecve)(x->fd, x->argv, envp);
}

static int real_posix_spawn(const struct xcall *x, char *const *envp)
{
	return REAL(posix_spawn)(x->pid, x->path, x->actions, x->attr, x->argv, envp);
}

static int real_posix_spawnp(const struct xcall *x, char *const *envp)
{
	return REAL(posix_spawnp)(x->pid, x->path, x->actions, x->attr, x->argv, envp);
}

/* Notes PATH's exec when ENVP lost the library (execnote.h). */
static void note(const char *path, char *const *envp)
{
	if (RWC_UNLIKELY(rwc_exec_unchecked(envp)))
		rwc_exec_note(path, getpid());
}

/* The same for a spawn that started PID (*PID when PID is not NULL). */
static int spawned(int r, const char *path, const pid_t *pid, char *const *envp)
{
	if (r == 0 && RWC_UNLIKELY(rwc_exec_unchecked(envp)))
		rwc_exec_note(path, pid ? *pid : 0);
	return r;
}

RWC_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	if (RWC_LIKELY(!notrace)) {
		note(path, envp);
		return REAL(execve)(path, argv, envp);
	}
	return with_env(&(struct xcall){.fn = real_execve, .path = path, .argv = argv}, envp);
}

/* As glibc's: the arguments up to the NULL, then the environment. */
RWC_EXPORT int execle(const char *path, const char *arg, ...)
{
	size_t argc = 1;
	char *const *envp;
	va_list ap;

	va_start(ap, arg);
	while (va_arg(ap, const char *))
		if (++argc == INT_MAX) {
			va_end(ap);
			errno = E2BIG;
			return -1;
		}
	va_end(ap);
	char *argv[argc + 1];
	va_start(ap, arg);
	argv[0] = (char *)arg;
	for (size_t i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	envp = va_arg(ap, char *const *);
	va_end(ap);
	if (RWC_LIKELY(!notrace)) {
		note(path, envp);
		return REAL(execve)(path, argv, envp);
	}
	return with_env(&(struct xcall){.fn = real_execve, .path = path, .argv = argv}, envp);
}

RWC_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (RWC_LIKELY(!notrace)) {
		note(file, envp);
		return REAL(execvpe)(file, argv, envp);
	}
	return with_env(&(struct xcall){.fn = real_execvpe, .path = file, .argv = argv}, envp);
}

RWC_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (RWC_LIKELY(!notrace)) {
		note("(fexecve)", envp);
		return REAL(fexecve)(fd, argv, envp);
	}
	return with_env(&(struct xcall){.fn = real_fexecve, .fd = fd, .argv = argv}, envp);
}

RWC_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	if (RWC_LIKELY(!notrace))
		return spawned(REAL(posix_spawn)(pid, path, actions, attr, argv, envp), path, pid, envp);
	return with_env(&(struct xcall){.fn = real_posix_spawn, .path = path, .argv = argv, .pid = pid,
					.actions = actions, .attr = attr},
			envp);
}

RWC_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
			    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	if (RWC_LIKELY(!notrace))
		return spawned(REAL(posix_spawnp)(pid, file, actions, attr, argv, envp), file, pid, envp);
	return with_env(&(struct xcall){.fn = real_posix_spawnp, .path = file, .argv = argv, .pid = pid,
					.actions = actions, .attr = attr},
			envp);
}

/* execv and execvp hand on environ (already without the library under
 * --trace-children=no): only noted.  (env -i reaches execvp.) */
RWC_EXPORT int execv(const char *path, char *const argv[])
{
	if (RWC_LIKELY(!notrace))
		note(path, environ);
	return REAL(execv)(path, argv);
}

RWC_EXPORT int execvp(const char *file, char *const argv[])
{
	if (RWC_LIKELY(!notrace))
		note(file, environ);
	return REAL(execvp)(file, argv);
}
