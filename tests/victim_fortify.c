/* victim_fortify.c: built with -O2 -D_FORTIFY_SOURCE=2, so that glibc's
 * headers inline their read()/pread()/recv()/recvfrom() wrappers into the
 * callers and call __read_chk & co.  The buffers have a size the compiler
 * knows; their second page is made read-only, so the call is bad.  The
 * report must lead to this file's line, not to glibc's headers.
 * Also built at -O1/-O2/-O3 with and without _FORTIFY_SOURCE (Makefile.am)
 * for the inline_* and chain cases: the calls inlined into main() (under
 * glibc's inlined wrapper when fortified), whose reports must show each
 * inlined function as a frame of its own, at its line.
 *
 *   victim_fortify ENTRY good|bad   -> prints "site FUNC LINE" (outermost
 *   first), "result ..."
 *   ENTRY: read pread recv recvfrom (one noinline function each),
 *   inline_read inline_pread inline_recv inline_recvfrom (slurp(), a static
 *   function called once: inlined into main from -O1 on), chain (inner()
 *   inlined into outer() inlined into main),
 *   over_global over_stack over_stack_pad over_heap over_fread over_recv (a count
 *   larger than the object the compiler saw: glibc aborts the bad call,
 *   after rwcheck's report; the good twin asks exactly the object's
 *   size), and the capacity calls' twins over_readlink (a stack array
 *   below another, read with 40: inside the frame), over_getcwd (a global), over_gethostname (a stack
 *   array), over_poll (two pollfds on the stack, nfds 8), over_getgroups
 *   (a global of 4 gid_t, size 16); these also take "warm" for three good
 *   calls, then the bad one, and "huge" (sizes()). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "victim.h"

static char buf[8192] __attribute__((aligned(4096)));
static int fd, sock[2];
static volatile size_t n = sizeof buf; /* unknown at compile time: __*_chk */
static ssize_t ret;

/* The over_* cases: 16-byte objects (a 100-byte heap block) read with 64
 * (200) bytes, or exactly their size. */
static char small[16];
static volatile size_t over_n, heap_n;

__attribute__((noinline)) static void f_over_global(void) { SITE(); ret = read(fd, small, over_n); }

__attribute__((noinline)) static void f_over_stack(void)
{
	char b[16];

	SITE(); ret = read(fd, b, over_n);
	__asm__ volatile("" : : "r"(b) : "memory");
}

/* The same with another array above b in the frame: without DWARF the
 * frame's saved registers start past both. */
__attribute__((noinline)) static void f_over_stack_pad(void)
{
	char b[16], other[24];

	memset(other, 1, sizeof other);
	SITE(); ret = read(fd, b, over_n);
	__asm__ volatile("" : : "r"(b), "r"(other) : "memory");
}

__attribute__((noinline)) static void f_over_heap(void)
{
	char *p = malloc(100);

	SITE(); ret = read(fd, p, heap_n);
	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
}

__attribute__((noinline)) static void f_over_fread(void)
{
	FILE *f = fopen("/proc/self/exe", "r");

	SITE(); ret = (ssize_t)fread(small, 1, over_n, f);
	fclose(f);
}

__attribute__((noinline)) static void f_over_recv(void) { SITE(); ret = recv(sock[0], small, over_n, 0); }

/* The capacity calls' fortified twins (__readlink_chk, __getcwd_chk,
 * __gethostname_chk, __poll_chk, __getgroups_chk). */
static volatile nfds_t poll_n;
static volatile size_t link_n; /* bad: 40, inside the frame (b, then other) */
static volatile int groups_n;
static gid_t groups[4];

__attribute__((noinline)) static void f_over_readlink(void)
{
	char b[16], other[24];

	memset(other, 1, sizeof other);
	SITE(); ret = readlink("/proc/self/exe", b, link_n);
	__asm__ volatile("" : : "r"(b), "r"(other) : "memory");
	ret = ret > 0; /* the length depends on where the tests run */
}

__attribute__((noinline)) static void f_over_getcwd(void) { SITE(); ret = getcwd(small, over_n) ? 0 : errno; }

__attribute__((noinline)) static void f_over_gethostname(void)
{
	char b[16];

	SITE(); ret = gethostname(b, over_n);
	__asm__ volatile("" : : "r"(b) : "memory");
}

__attribute__((noinline)) static void f_over_poll(void)
{
	struct pollfd p[2] = {{.fd = sock[1], .events = POLLOUT}, {.fd = -1}};

	SITE(); ret = poll(p, poll_n, 0);
	__asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) static void f_over_getgroups(void) { SITE(); ret = getgroups(groups_n, groups) >= 0; }

__attribute__((noinline)) static void f_read(void) { SITE(); ret = read(fd, buf, n); }
__attribute__((noinline)) static void f_pread(void) { SITE(); ret = pread(fd, buf, n, 0); }
__attribute__((noinline)) static void f_recv(void) { SITE(); ret = recv(sock[0], buf, n, 0); }
__attribute__((noinline)) static void f_recvfrom(void) { SITE(); ret = recvfrom(sock[0], buf, n, 0, NULL, NULL); }

static void slurp(const char *entry)
{
	if (strcmp(entry, "read") == 0) {
		SITE(); ret = read(fd, buf, n);
	} else if (strcmp(entry, "pread") == 0) {
		SITE(); ret = pread(fd, buf, n, 0);
	} else if (strcmp(entry, "recv") == 0) {
		SITE(); ret = recv(sock[0], buf, n, 0);
	} else if (strcmp(entry, "recvfrom") == 0) {
		SITE(); ret = recvfrom(sock[0], buf, n, 0, NULL, NULL);
	}
}

static volatile int chained; /* the chain's read is not slurp()'s: no shared code */
static inline __attribute__((always_inline)) void inner(void) { SITE(); ret = read(fd, buf, n); chained = 1; }
static inline __attribute__((always_inline)) void outer(void) { SITE(); inner(); }

static const struct {
	const char *name;
	void (*fn)(void);
} caps[] = {{"over_readlink", f_over_readlink}, {"over_getcwd", f_over_getcwd},
	    {"over_gethostname", f_over_gethostname}, {"over_poll", f_over_poll},
	    {"over_getgroups", f_over_getgroups}};

/* The over_* cases' counts: BAD past the objects, else their sizes;
 * HUGE (2) the capacity calls' counts past what an int or a size_t
 * product holds: readlink's (1 << 32) + 40 (the kernel's int: 40),
 * poll's 2^61 + 1 pollfds (16 bytes, wrapped). */
static void sizes(int bad)
{
	over_n = bad ? 64 : sizeof small;
	heap_n = bad ? 200 : 100;
	poll_n = bad == 2 ? ((nfds_t)1 << 61) + 1 : bad ? 8 : 2;
	link_n = bad == 2 ? ((size_t)1 << 32) + 40 : bad ? 40 : 16;
	groups_n = bad ? 16 : 4;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	fd = open("/proc/self/exe", O_RDONLY); /* longer than the buffer: a full read */
	if (fd < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sock) < 0 || write(sock[1], "0123456789", 10) != 10)
		return 99;
	sizes(strcmp(argv[2], "bad") == 0);
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
		if (strcmp(argv[1], caps[i].name) == 0) {
			/* warm: three good calls from the same place, then the bad one */
			for (int k = 0; strcmp(argv[2], "warm") == 0 && k < 3; k++)
				caps[i].fn();
			sizes(strcmp(argv[2], "huge") == 0 ? 2 : strcmp(argv[2], "good") != 0);
			caps[i].fn();
			printf("result %zd\n", ret);
			return 0;
		}
	if (strcmp(argv[2], "bad") == 0 && strncmp(argv[1], "over_", 5) != 0)
		mprotect(buf + 4096, 4096, PROT_READ);
	if (strcmp(argv[1], "read") == 0)
		f_read();
	else if (strcmp(argv[1], "pread") == 0)
		f_pread();
	else if (strcmp(argv[1], "recv") == 0)
		f_recv();
	else if (strcmp(argv[1], "recvfrom") == 0)
		f_recvfrom();
	else if (strncmp(argv[1], "inline_", 7) == 0) {
		SITE(); slurp(argv[1] + 7);
	} else if (strcmp(argv[1], "chain") == 0) {
		SITE(); outer();
	}
	else if (strcmp(argv[1], "over_global") == 0)
		f_over_global();
	else if (strcmp(argv[1], "over_stack") == 0)
		f_over_stack();
	else if (strcmp(argv[1], "over_stack_pad") == 0)
		f_over_stack_pad();
	else if (strcmp(argv[1], "over_heap") == 0)
		f_over_heap();
	else if (strcmp(argv[1], "over_fread") == 0)
		f_over_fread();
	else if (strcmp(argv[1], "over_recv") == 0)
		f_over_recv();
	else
		return 2;
	printf("result %zd\n", ret);
	return 0;
}
