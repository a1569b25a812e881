/* own-map-in-gap.c: a missed report (rwcheck defect, found by check-suites).
 * The program frees a page and then reads 4096 bytes into a buffer that
 * ends where that page was.  Its first intercepted call is the read, so
 * rwcheck initialises there; with RWCHECK_SUPPRESS set, the suppressions
 * file is loaded into a new anonymous mapping (suppfile.c, REAL(mmap)),
 * which the kernel places exactly in the freed page.  The check then sees
 * bytes 100..4095 as mapped rw memory and says nothing, and the read
 * writes into rwcheck's own suppression table.
 *
 *   cc -g -o own-map-in-gap tests/repro/own-map-in-gap.c
 *   printf '# none\n' >none.supp
 *   ./rwcheck -- ./own-map-in-gap                          # [buf-unmapped]: right
 *   ./rwcheck --suppressions=none.supp -- ./own-map-in-gap # no report: wrong
 *
 * Any other lazily made mapping of the library in that gap does the same. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	/* raw system calls: nothing intercepted before the read */
	char *page = (char *)syscall(SYS_mmap, NULL, 8192, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY);

	syscall(SYS_munmap, page + 4096, 4096);
	ssize_t n = read(fd, page + 4096 - 100, 4096); /* bug: room for 100 bytes */
	printf("read %zd bytes\n", n);
	return 0;
}
