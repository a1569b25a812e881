/* ptree.c: which of the command's processes run with the library and
 * which without it (a child whose environment lost LD_PRELOAD: env -i,
 * a test harness that replaces it; a static or setuid program).  The
 * supervisor samples /proc while the command runs: the processes whose
 * parent chain leads to the command, each (pid, executable) once, with or
 * without the library in its /proc/PID/maps (without: only when a later
 * sample agrees, since the loader maps the library a moment after exec).
 * A sample misses processes that live shorter than the sampling period,
 * and those whose parent died before they were seen (reparented): the
 * counts are lower bounds. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"

struct link {
	long pid, ppid;
};

static int by_pid(const void *a, const void *b)
{
	const struct link *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static long parent_of(const struct link *v, size_t n, long pid)
{
	struct link key = {pid, 0}, *l = bsearch(&key, v, n, sizeof *v, by_pid);
	return l ? l->ppid : 0;
}

static long read_ppid(long pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	long ppid = 0;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return 0;
	if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')')))
		sscanf(p + 1, " %*c %ld", &ppid);
	fclose(f);
	return ppid;
}

/* Does PID's address space hold LIB?  -1: cannot tell (gone, not ours,
 * a kernel thread). */
static int has_lib(long pid, const char *lib)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int found = 0, any = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/maps", pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (!found && getline(&line, &cap, f) > 0) {
		any = 1;
		found = strstr(line, lib) != NULL;
	}
	free(line);
	fclose(f);
	return any ? found : -1;
}

static void add(struct ptree *pt, long pid, int with, const char *exe, int from_exec)
{
	size_t n = strlen(exe) < sizeof pt->v->exe ? strlen(exe) : sizeof pt->v->exe - 1;

	if (pt->n == pt->cap) {
		struct proc *nv = realloc(pt->v, (pt->cap ? pt->cap * 2 : 64) * sizeof *nv);
		if (!nv)
			return;
		pt->v = nv;
		pt->cap = pt->cap ? pt->cap * 2 : 64;
	}
	pt->v[pt->n].pid = pid;
	pt->v[pt->n].with = with;
	pt->v[pt->n].from_exec = from_exec;
	memcpy(pt->v[pt->n].exe, exe, n);
	pt->v[pt->n].exe[n] = '\0';
	pt->n++;
}

static void note(struct ptree *pt, long pid)
{
	char path[64], exe[sizeof pt->v->exe];
	ssize_t n;
	int with;

	snprintf(path, sizeof path, "/proc/%ld/exe", pid);
	if ((n = readlink(path, exe, sizeof exe - 1)) <= 0)
		return;
	exe[n] = '\0';
	if (strcmp(exe, pt->self) == 0) /* the command between fork and exec */
		return;
	for (size_t i = 0; i < pt->n; i++)
		if (pt->v[i].pid == pid && pt->v[i].from_exec)
			return; /* its exec without the library was told */
	for (size_t i = 0; i < pt->n; i++)
		if (pt->v[i].pid == pid && strcmp(pt->v[i].exe, exe) == 0) {
			if (pt->v[i].with == -1 && (with = has_lib(pid, pt->lib)) >= 0)
				pt->v[i].with = with; /* seen twice: decided */
			return;
		}
	if ((with = has_lib(pid, pt->lib)) < 0)
		return;
	if (with == 0) /* (maybe the loader has not mapped it yet: look again) */
		with = -1;
	add(pt, pid, with, exe, 0);
}

void ptree_note_exec(struct ptree *pt, long pid, const char *exe)
{
	for (size_t i = 0; i < pt->n; i++)
		if (pt->v[i].pid == pid && pt->v[i].with != 1 && pid) {
			/* seen without already, or seen once before its loader had
			 * mapped anything (undecided): the record decides */
			pt->v[i].with = 0;
			pt->v[i].from_exec = 1;
			return;
		}
	add(pt, pid, 0, exe, 1);
}

void ptree_scan(struct ptree *pt)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct link *v = NULL;
	size_t n = 0, cap = 0;

	if (!d || !pt->root)
		goto out;
	if (!pt->self[0] && readlink("/proc/self/exe", pt->self, sizeof pt->self - 1) <= 0)
		pt->self[0] = '/';
	while ((de = readdir(d))) {
		long pid;
		if (!isdigit((unsigned char)de->d_name[0]) || (pid = atol(de->d_name)) == getpid())
			continue;
		if (n == cap) {
			struct link *nv = realloc(v, (cap ? cap * 2 : 256) * sizeof *nv);
			if (!nv)
				goto out;
			v = nv;
			cap = cap ? cap * 2 : 256;
		}
		v[n].pid = pid;
		v[n++].ppid = read_ppid(pid);
	}
	if (n)
		qsort(v, n, sizeof *v, by_pid);
	for (size_t i = 0; i < n; i++) {
		long p = v[i].pid;
		for (int depth = 0; p > 1 && p != pt->root && depth < 256; depth++)
			p = parent_of(v, n, p);
		if (p == pt->root)
			note(pt, v[i].pid);
	}
out:
	if (d)
		closedir(d);
	free(v);
}

static int by_pid_with(const void *a, const void *b)
{
	const struct proc *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

size_t ptree_count(struct ptree *pt, int with)
{
	size_t c = 0;

	qsort(pt->v, pt->n, sizeof *pt->v, by_pid_with);
	for (size_t i = 0; i < pt->n; i++) {
		int any = 0;
		size_t j = i;
		for (; j < pt->n && pt->v[j].pid == pt->v[i].pid; j++)
			any |= pt->v[j].with == with;
		c += (size_t)any;
		i = j - 1;
	}
	return c;
}

/* The file execvp would run for CMD (NULL: not found). */
static char *resolve(const char *cmd)
{
	const char *path = getenv("PATH");
	char *buf;

	if (strchr(cmd, '/'))
		return strdup(cmd);
	for (const char *p = path ? path : "/usr/bin:/bin"; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
		size_t n = strcspn(p, ":");
		if (asprintf(&buf, "%.*s%s%s", (int)n, p, n ? "/" : "", cmd) < 0)
			return NULL;
		if (access(buf, X_OK) == 0)
			return buf;
		free(buf);
	}
	return NULL;
}

/* Is the ELF file F linked without a program interpreter (static)? */
static int is_static(FILE *f)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof ph)
		return 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		if (fseeko(f, (off_t)(eh.e_phoff + i * sizeof ph), SEEK_SET) != 0 || fread(&ph, sizeof ph, 1, f) != 1)
			return 0;
		if (ph.p_type == PT_INTERP)
			return 0;
	}
	return 1;
}

void ptree_check_exe(const char *cmd)
{
	char *path = resolve(cmd);
	const char *why = NULL;
	struct stat st;
	FILE *f;

	if (!path || stat(path, &st) != 0) {
		free(path);
		return;
	}
	if (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) || ((st.st_mode & S_ISGID) && st.st_gid != getegid()))
		why = "is setuid or setgid: the loader ignores LD_PRELOAD for it";
	else if ((f = fopen(path, "re"))) {
		if (is_static(f))
			why = "is statically linked: the library cannot be preloaded into it";
		fclose(f);
	}
	if (why)
		say("warning", "%s %s; its own calls are not checked (its children's "
			       "are), and its exit status alone decides rwcheck's", cmd, why);
	free(path);
}
