/* An unchecked lseek() result (-1 on a pipe) used as a pread offset. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
#ifdef CLEAN
    off_t off = lseek(fd, 0, SEEK_CUR);
#else
    off_t off = lseek(p[0], 0, SEEK_CUR);
#endif
    char buf[16];
    ssize_t n = pread(fd, buf, sizeof buf, off); /*BAD call=pread problem=offset-negative*/
    printf("pread %zd %s\n", n, n < 0 ? strerror(errno) : "ok");
    return 0;
}
