/* forkbind.c: a fork child's first write() and execve() read none of
 * libc's symbol table (the library binds what a child calls first in the
 * parent, before the fork: entry/fork.c).  The parent makes one checked
 * read() and never calls write() or execve() itself; the child makes
 * libc's .dynsym and .dynstr unreadable and then writes one byte to a
 * pipe and execs /bin/true.  A bind in the child would read them and
 * die of SIGSEGV.  Prints the child's fate: "exit N" or "signal N".
 * Linked with -z now: the program's own calls are bound at start. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct range {
	uintptr_t lo, hi;
};

static uintptr_t at(const struct dl_phdr_info *i, ElfW(Addr) v)
{
	return v < i->dlpi_addr ? i->dlpi_addr + v : v; /* relocated or not */
}

/* The whole pages of libc's .dynsym and .dynstr (they lie side by side,
 * .dynsym first, in glibc's builds). */
static int libc_tables(struct dl_phdr_info *i, size_t size, void *data)
{
	struct range *r = data;
	uintptr_t sym = 0, str = 0, strsz = 0;
	long pg = sysconf(_SC_PAGESIZE);

	(void)size;
	if (!strstr(i->dlpi_name, "/libc.so"))
		return 0;
	for (int k = 0; k < i->dlpi_phnum; k++) {
		const ElfW(Dyn) *d;

		if (i->dlpi_phdr[k].p_type != PT_DYNAMIC)
			continue;
		for (d = (const ElfW(Dyn) *)(i->dlpi_addr + i->dlpi_phdr[k].p_vaddr); d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_SYMTAB)
				sym = at(i, d->d_un.d_ptr);
			else if (d->d_tag == DT_STRTAB)
				str = at(i, d->d_un.d_ptr);
			else if (d->d_tag == DT_STRSZ)
				strsz = d->d_un.d_val;
	}
	if (!sym || !str || str < sym)
		return 0;
	r->lo = (sym + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	r->hi = (str + strsz) & ~((uintptr_t)pg - 1);
	return r->hi > r->lo;
}

int main(void)
{
	struct range r = {0, 0};
	char b[1];
	int fd = open("/dev/zero", O_RDONLY), p[2], st;
	pid_t pid;

	if (fd < 0 || read(fd, b, 1) != 1 || pipe(p) != 0)
		return 2;
	if (!dl_iterate_phdr(libc_tables, &r)) {
		puts("no tables");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = {"true", NULL};

		if (mprotect((void *)r.lo, r.hi - r.lo, PROT_NONE) != 0)
			_exit(3);
		b[0] = 'x'; /* the parent's checked buffer: no first check of another kind */
		if (write(p[1], b, 1) != 1)
			_exit(4);
		execve("/bin/true", argv, environ);
		_exit(5);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	if (WIFSIGNALED(st))
		printf("signal %d\n", WTERMSIG(st));
	else
		printf("exit %d %s\n", WEXITSTATUS(st), read(p[0], b, 1) == 1 && b[0] == 'x' ? "wrote" : "none");
	return 0;
}
