/* maps_parse.h: parsing /proc/<pid>/maps text.  Pure: no allocation, no
 * global state; the scanner reads through a caller-supplied function into a
 * caller-supplied buffer.  Signal-safe.  A fuzz target and unit tests call
 * it directly. */
#ifndef RWC_MAPS_PARSE_H
#define RWC_MAPS_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rwc_map_entry {
	uintptr_t start, end;
	unsigned prot;        /* RWC_PROT_* from checks.h */
	uint64_t offset;
	unsigned dev_major, dev_minor;
	uint64_t inode;
	const char *path;     /* points into the line; not NUL-terminated */
	size_t path_len;      /* 0 for anonymous mappings */
};

/* Parses one line (without its newline).  0 on success, -1 if malformed. */
int rwc_maps_parse_line(const char *line, size_t len, struct rwc_map_entry *e);

/* Called for each well-formed line; a nonzero return stops the scan. */
typedef int (*rwc_maps_cb)(const struct rwc_map_entry *e, void *arg);
typedef ssize_t (*rwc_read_fn)(int fd, void *buf, size_t n);

/* Reads FD to the end with RD into BUF (CAP bytes, at least 256) and calls
 * CB for each entry, in file order.  Lines longer than CAP are passed on
 * with their path cut.  Returns 0 at end of file, 1 when CB stopped it,
 * -1 on a read error; *malformed (if not NULL) counts skipped lines. */
int rwc_maps_scan(int fd, rwc_read_fn rd, char *buf, size_t cap,
		  rwc_maps_cb cb, void *arg, unsigned *malformed);

#endif
