/* victim.h: the harness the victim programs share (header only: each
 * victim is one file, built in several variants).  A victim runs one case:
 *
 *   victim_X CASE good|bad
 *
 * and prints "site FUNCTION LINE" (SITE(), on the line of the call under
 * test: the tests compare it with the report's caller), then "result RET
 * ERRNO".  main() picks the case with victim_pick() and calls it itself,
 * so that every case's caller is main (the tests assert frame #1).
 * Include it after the system headers; it allocates nothing. */
#ifndef RWC_TESTS_VICTIM_H
#define RWC_TESTS_VICTIM_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define SITE() printf("site %s %d\n", __func__, __LINE__)
#define NOINLINE __attribute__((noinline))
#define VICTIM_UNUSED __attribute__((unused))

/* A row of a case table: the case's name and c_NAME, its function.  A
 * table of another row type works with victim_pick() as long as the row
 * starts with the name. */
struct victim_case {
	const char *name;
	void (*fn)(void);
};
#define VCASE(n) {#n, c_##n}

/* Checks "CASE good|bad" (else a usage line on stderr: -1, main returns
 * 2), makes stdout unbuffered and sets *BAD (when BAD is not NULL). */
static VICTIM_UNUSED int victim_args(int argc, char **argv, const char *prog, int *bad)
{
	if (argc != 3 || (strcmp(argv[2], "good") && strcmp(argv[2], "bad"))) {
		fprintf(stderr, "usage: %s CASE good|bad\n", prog);
		return -1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (bad)
		*bad = strcmp(argv[2], "bad") == 0;
	return 0;
}

/* The index of the case NAME among the N rows of STRIDE bytes at ROWS,
 * or -1. */
static VICTIM_UNUSED int victim_find_rows(const char *name, const void *rows, size_t n, size_t stride)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(*(const char *const *)((const char *)rows + i * stride), name) == 0)
			return (int)i;
	return -1;
}

#define victim_find(name, rows) \
	victim_find_rows(name, rows, sizeof(rows) / sizeof((rows)[0]), sizeof((rows)[0]))

/* victim_args, then the index of CASE in the table ROWS, or -1 (said on
 * stderr; main returns 2). */
static VICTIM_UNUSED int victim_pick_rows(int argc, char **argv, const char *prog, const void *rows,
					  size_t n, size_t stride, int *bad)
{
	int i;

	if (victim_args(argc, argv, prog, bad) < 0)
		return -1;
	i = victim_find_rows(argv[1], rows, n, stride);
	if (i < 0)
		fprintf(stderr, "%s: no case %s\n", prog, argv[1]);
	return i;
}
#define victim_pick(argc, argv, prog, rows, bad) \
	victim_pick_rows(argc, argv, prog, rows, sizeof(rows) / sizeof((rows)[0]), sizeof((rows)[0]), bad)

/* A file in /tmp named after PROG holding the N bytes at DATA, unlinked
 * and at offset 0, close-on-exec if CLOEXEC.  Its descriptor, or -1 (main
 * returns 99).  DATA is the victim's: where it lies (the
 * program's image or the stack) decides what the write makes the library
 * load before the case. */
static VICTIM_UNUSED int victim_file(const char *prog, const void *data, size_t n, int cloexec)
{
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/tmp/rwc-%s-XXXXXX", prog);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if ((cloexec && fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) || write(fd, data, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The case's "result RET ERRNO" line (ERR: errno right after the call). */
static VICTIM_UNUSED void victim_result(ssize_t ret, int err)
{
	printf("result %zd %d\n", ret, ret < 0 ? err : 0);
}

#endif
