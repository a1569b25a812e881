/* victim_dlmopen.c: librwcheck.so loaded with dlmopen into a namespace of
 * its own whose first module is a library the program then closes: the
 * library's kept tables of "the program's module" (the first one) must
 * not outlive it (a later module that gets its link map back was read
 * through the closed one's tables: SIGSEGV).
 *   victim_dlmopen LIBRWCHECK FIRST SECOND
 * (FIRST and SECOND: two small libraries whose paths have the same
 * length, so that SECOND's link map may take FIRST's memory.)  Prints
 * "result CALL N" for each call made through the namespace's library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct link_map *first, *second;
	char buf[16] = {0};
	struct iovec iov = {buf, sizeof buf};
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);
	Lmid_t ns;
	void *a, *lib, *b, *hole;

	if (argc != 4 || zero < 0 || null < 0)
		return 2;
	if (!(a = dlmopen(LM_ID_NEWLM, argv[2], RTLD_NOW)) || dlinfo(a, RTLD_DI_LMID, &ns) ||
	    dlinfo(a, RTLD_DI_LINKMAP, &first) || !(lib = dlmopen(ns, argv[1], RTLD_NOW))) {
		printf("dlmopen: %s\n", dlerror());
		return 3; /* (the library's initial-exec TLS needs GLIBC_TUNABLES' optional static TLS) */
	}
	ssize_t (*rd)(int, void *, size_t) = (ssize_t (*)(int, void *, size_t))dlsym(lib, "read");
	ssize_t (*pr)(int, void *, size_t, off_t) = (ssize_t (*)(int, void *, size_t, off_t))dlsym(lib, "pread");
	ssize_t (*wv)(int, const struct iovec *, int) = (ssize_t (*)(int, const struct iovec *, int))dlsym(lib, "writev");

	printf("result read %zd\n", rd(zero, buf, sizeof buf)); /* the library starts, binds read */
	uintptr_t at = first->l_addr;
	dlclose(a);
	/* keep SECOND from landing where FIRST was */
	hole = mmap((void *)at, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (!(b = dlmopen(ns, argv[3], RTLD_NOW)) || dlinfo(b, RTLD_DI_LINKMAP, &second))
		return 4;
	printf("link map reused %d, hole %d\n", second == first, hole != MAP_FAILED);
	printf("result pread %zd\n", pr(zero, buf, sizeof buf, 0)); /* binds pread: walks the namespace */
	printf("result writev %zd\n", wv(null, &iov, 1));
	return 0;
}
