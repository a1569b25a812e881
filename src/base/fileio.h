/* fileio.h: the library's own file I/O, through the real functions (its
 * reads and writes pass no check and leave the thread's caches alone):
 * whole reads and writes, and whether a write may grow a file at all.
 * Errno as the calls leave it. */
#ifndef RWC_FILEIO_H
#define RWC_FILEIO_H

#include <stddef.h>
#include <stdint.h>

/* Reads N bytes at OFF of FD into BUF: 0 when all came, -1 at an error
 * or the file's end first. */
int rwc_pread_all(int fd, void *buf, size_t n, uint64_t off);
/* Writes N bytes of BUF to FD (again after EINTR): 0 when all went. */
int rwc_write_all(int fd, const void *buf, size_t n);
/* The process may write a file of any size (no RLIMIT_FSIZE: past one,
 * a write ends it with SIGXFSZ). */
int rwc_no_size_limit(void);

/* open(2), and where the program has used up its descriptors (EMFILE)
 * with room under the hard limit: again with the soft limit one higher
 * for that open alone (the descriptor then lies at the old limit; the
 * caller closes it before returning to the program).  For the library's
 * short opens (its log, the maps, a module's file): a report must not be
 * lost, nor a check given up, because the program keeps every descriptor
 * busy. */
int rwc_open_spare(const char *path, int flags, unsigned mode);

/* The absolute name the program was run by (AT_EXECFN: its file opened
 * by it without a /proc lookup, the caller checking that file's headers
 * are those in memory), or NULL: a relative name (a chdir since may have
 * moved it), a /dev/fd/N or /proc one (fexecve: another descriptor by
 * now). */
const char *rwc_exec_name(void);

#endif
