/* probe-test.c: mapview/probe.c's kernel read of this process's own
 * memory (TAP): readable bytes are copied, an unmapped or PROT_NONE byte
 * anywhere in the range makes it 0 (never a signal), errno is kept. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapview/probe.h"
#include "tap.h"

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 3 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char word[8] = "abcdefg", got[16];
	int r;

	if (m == MAP_FAILED)
		return 99;
	memset(m, 'x', 3 * (size_t)pg);
	munmap(m + 2 * pg, (size_t)pg);        /* page 2: unmapped */
	mprotect(m + pg, (size_t)pg, PROT_NONE); /* page 1: no access */
	r = rwc_probe_read(got, (uintptr_t)word, sizeof word);
	if (r < 0) { /* process_vm_readv refused here (a seccomp filter): nothing to test */
		printf("1..0 # SKIP process_vm_readv refused\n");
		return 0;
	}
	ok(r == 1 && memcmp(got, word, sizeof word) == 0, "a stack variable: read, its bytes copied");
	ok(rwc_probe_read(got, (uintptr_t)m + (uintptr_t)pg - 8, 8) == 1, "the last 8 bytes of a readable page");
	ok(rwc_probe_read(got, (uintptr_t)m + (uintptr_t)pg - 4, 8) == 0, "8 bytes running into a PROT_NONE page: 0");
	ok(rwc_probe_read(got, (uintptr_t)m + (uintptr_t)pg, 8) == 0, "a PROT_NONE page: 0");
	ok(rwc_probe_read(got, (uintptr_t)m + 2 * (uintptr_t)pg, 8) == 0, "an unmapped page: 0");
	ok(rwc_probe_read(got, UINTPTR_MAX - 3, 8) == 0, "a range wrapping the address space: 0");
	ok(rwc_probe_read(got, 0, 0) == 1, "no bytes: 1");
	errno = 4242;
	(void)rwc_probe_read(got, (uintptr_t)m + 2 * (uintptr_t)pg, 8);
	ok(errno == 4242, "errno kept after a failed read");
	return done_testing();
}
