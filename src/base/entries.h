/* entries.h: prototypes of the fortified glibc entry points (their headers
 * declare them only under _FORTIFY_SOURCE, which the library is built
 * without); declares nothing else. */
#ifndef RWC_ENTRIES_H
#define RWC_ENTRIES_H

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

extern ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen);
extern ssize_t __pread_chk(int fd, void *buf, size_t nbytes, off_t offset, size_t bufsize);
extern ssize_t __pread64_chk(int fd, void *buf, size_t nbytes, off64_t offset, size_t bufsize);
extern ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
extern ssize_t __recvfrom_chk(int fd, void *__restrict buf, size_t n, size_t buflen,
			      int flags, __SOCKADDR_ARG addr, socklen_t *__restrict addr_len);
extern size_t __fread_chk(void *__restrict ptr, size_t ptrlen, size_t size, size_t n,
			  FILE *__restrict stream);
extern size_t __fread_unlocked_chk(void *__restrict ptr, size_t ptrlen, size_t size, size_t n,
				   FILE *__restrict stream);
extern char *__fgets_chk(char *__restrict s, size_t size, int n, FILE *__restrict stream);
extern char *__fgets_unlocked_chk(char *__restrict s, size_t size, int n, FILE *__restrict stream);
extern ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
extern ssize_t __readlinkat_chk(int fd, const char *path, char *buf, size_t len, size_t buflen);
extern char *__getcwd_chk(char *buf, size_t size, size_t buflen);
extern int __gethostname_chk(char *buf, size_t len, size_t buflen);
extern int __getdomainname_chk(char *buf, size_t len, size_t buflen);
extern int __getgroups_chk(int size, gid_t list[], size_t listlen);
extern int __poll_chk(struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen);
extern int __ppoll_chk(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
		       const sigset_t *ss, size_t fdslen);

#endif
