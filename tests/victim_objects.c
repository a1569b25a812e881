/* victim_objects.c: real bugs of rwcheck's kind in miniature (see
 * ../shared/REAL-BUGS.md): each case passes the kernel a capacity larger
 * than the object it points into, the way a real program did, and gets
 * away with it because the transfer is short (a 5-byte file, an empty
 * socket, an empty epoll set).  `victim_objects CASE bad|good`: the good
 * twin makes the same call with the right size.  Prints "site FUNCTION
 * LINE" for the call under test and "result RET ERRNO" after it.  Built
 * -O0 -g, -O2 -g, -O2 -g -D_FORTIFY_SOURCE=2, -O2 without -g, and non-PIE
 * (tests/objects.py). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "victim.h"

static int file_fd = -1; /* a 5-byte file: every read is short */
static volatile int bad_mode;
static ssize_t ret;

/* Sizes through a volatile, as in glibc's tst-fortify: the compiler
 * cannot see them. */
static volatile size_t v64 = 64, v128 = 128, v4096 = 4096, v65536 = 65536;

static void result(void)
{
	victim_result(ret, errno);
}

/* A UDP socket on 127.0.0.1 with nothing queued: recvfrom returns EAGAIN. */
static int empty_udp(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0)
		exit(99);
	return s;
}

/* mraa #238: a sysfs value read into 64 bytes with a count of 4096. */
static NOINLINE void stack_sysfs(int bad)
{
	char value[64];
	char path[64];

	snprintf(path, sizeof path, "/sys/class/gpio/gpio%d/value", 7);
	SITE(); ret = read(file_fd, value, bad ? v4096 : sizeof value);
	result();
	if (ret > 0 && value[0] == 'x' && path[0])
		puts("x");
}

/* A name field next to the rest of a record. */
static NOINLINE void stack_neighbours(int bad)
{
	char name[16];
	char rest[240];

	memset(rest, 0, sizeof rest);
	SITE(); ret = read(file_fd, name, bad ? v64 : sizeof name);
	result();
	if (ret > 0 && name[0] == rest[0] + 'x')
		puts("x");
}

/* CVE-2015-7547 in miniature: a 2048-byte stack answer buffer used with
 * the size of a larger one. */
static NOINLINE void stack_answer(int bad)
{
	unsigned char ans[2048];
	int s = empty_udp();

	SITE(); ret = recv(s, ans, bad ? v65536 : sizeof ans, MSG_DONTWAIT);
	result();
	close(s);
	if (ret > 0 && ans[0] == 1)
		puts("x");
}

/* The buffer passed down: the callee reads with the caller's wrong size. */
static NOINLINE ssize_t fill(char *p, size_t n)
{
	ssize_t r;

	SITE(); r = read(file_fd, p, n);
	__asm__ volatile("" : : : "memory"); /* not a tail call at -O2 */
	return r;
}

static NOINLINE void stack_passed_down(int bad)
{
	char small[24];

	ret = fill(small, bad ? v128 : sizeof small);
	result();
	if (ret > 0 && small[0] == 'x')
		puts("x");
}

/* A struct read whole through its first member: fine (the object is the
 * struct); past the struct's end: an overrun. */
struct rec {
	char tag[8];
	int len;
	char body[52];
};

static NOINLINE void stack_struct(int bad)
{
	struct rec r;

	SITE(); ret = read(file_fd, r.tag, bad ? sizeof r + 64 : sizeof r);
	result();
	if (ret > 0 && r.tag[0] == 'x')
		puts("x");
}

/* libuev #27: epoll_wait with the context's maxevents into a smaller
 * array; the set is empty. */
static NOINLINE void stack_epoll(int bad)
{
	struct epoll_event ee[10];
	int ep = epoll_create1(EPOLL_CLOEXEC), maxevents = bad ? 64 : 10;

	SITE(); ret = epoll_wait(ep, ee, maxevents, 0);
	result();
	close(ep);
	if (ret > 0 && ee[0].events == 12345)
		puts("x");
}

/* A heap block read one byte past its requested size (inside glibc's
 * usable size). */
static NOINLINE void heap_by_one(int bad)
{
	char *p = malloc(100);

	SITE(); ret = read(file_fd, p, bad ? 101 : 100);
	result();
	free(p);
}

/* owamp #67: 68 bytes received into a 41-byte calloc. */
static NOINLINE void heap_calloc(int bad)
{
	unsigned char *msg = calloc(1, 41);
	int s = empty_udp();

	SITE(); ret = recvfrom(s, msg, bad ? 68 : 41, MSG_DONTWAIT, NULL, NULL);
	result();
	close(s);
	free(msg);
}

/* curl CVE-2019-5436: the tftp packet buffer sized for the default block
 * size, received with the negotiated one. */
static NOINLINE void heap_blksize(int bad)
{
	size_t blksize = 512, negotiated = bad ? 1024 : 512;
	unsigned char *pkt = malloc(blksize + 4);
	int s = empty_udp();

	SITE(); ret = recvfrom(s, pkt, negotiated + 4, MSG_DONTWAIT, NULL, NULL);
	result();
	close(s);
	free(pkt);
}

/* FEX #5285: the middle of a large buffer, read with the whole size. */
static NOINLINE void heap_interior(int bad)
{
	size_t size = 65536, cur = 60000;
	char *data = malloc(size);

	SITE(); ret = pread(file_fd, data + cur, bad ? size : size - cur, 0);
	result();
	free(data);
}

/* A large (mmapped) block read past its end and past its mapping: the
 * block's end comes first. */
static NOINLINE void heap_large(int bad)
{
	char *p = malloc(200000);

	SITE(); ret = read(file_fd, p, bad ? 262144 : 200000);
	result();
	free(p);
}

/* systemd #22801: read with malloc_usable_size() as the count: legal. */
static NOINLINE void heap_usable(int bad)
{
	char *p = malloc(100);
	size_t n = malloc_usable_size(p);

	SITE(); ret = read(file_fd, p, bad ? n + 16 : n);
	result();
	free(p);
}

/* gre 3b6de6e: a global packet buffer, read at +4 with its whole size. */
static unsigned char pkt_buf[4096];

static NOINLINE void global_offset(int bad)
{
	SITE(); ret = read(file_fd, pkt_buf + 4, bad ? sizeof pkt_buf : sizeof pkt_buf - 4);
	result();
}

/* A static header read with a larger count. */
static char hdr[32];

static NOINLINE void global_static(int bad)
{
	SITE(); ret = read(file_fd, hdr, bad ? v128 : sizeof hdr);
	result();
}

/* A constant message written with a fixed-size count (write-like: the
 * kernel reads past the object). */
static const char greeting[] = "hello, world\n";

static NOINLINE void global_rodata(int bad)
{
	int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	SITE(); ret = write(null_fd, greeting, bad ? v64 : sizeof greeting - 1);
	result();
	close(null_fd);
}

/* A row of a table read whole: the row is not the object, the table is. */
static char table[4][32];

static NOINLINE void global_row(int bad)
{
	SITE(); ret = read(file_fd, table[1], bad ? 4 * sizeof table[0] : 2 * sizeof table[0]);
	result();
}

static const struct {
	const char *name;
	void (*fn)(int);
} cases[] = {
	{"stack_sysfs", stack_sysfs},     {"stack_neighbours", stack_neighbours}, {"stack_answer", stack_answer},
	{"stack_passed_down", stack_passed_down}, {"stack_struct", stack_struct}, {"stack_epoll", stack_epoll},
	{"heap_by_one", heap_by_one},     {"heap_calloc", heap_calloc},         {"heap_blksize", heap_blksize},
	{"heap_interior", heap_interior}, {"heap_large", heap_large},           {"heap_usable", heap_usable},         {"global_offset", global_offset},
	{"global_static", global_static}, {"global_rodata", global_rodata},     {"global_row", global_row},
};

int main(int argc, char **argv)
{
	int b;
	int i = victim_pick(argc, argv, "victim_objects", cases, &b);

	if (i < 0)
		return 2;
	file_fd = victim_file("victim_objects", "five\n", 5, 1);
	if (file_fd < 0)
		return 99;
	bad_mode = b;
	cases[i].fn(bad_mode);
	return 0;
}
