/* A 1 MiB buffer (mmapped by glibc) freed, then read into by a stale pointer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *big = malloc(1 << 20);
    if (fd < 0 || !big) return 2;
    big[0] = 1;
    char *cursor = big + 4096;
#ifdef CLEAN
    ssize_t n = read(fd, cursor, 100);
    int e = errno;
    free(big);
#else
    free(big);
    ssize_t n = read(fd, cursor, 100); /*BAD call=read problem=use-after-free kind=freed-heap-block size=1048576*/
    int e = errno;
#endif
    printf("read %zd %s\n", n, n < 0 ? strerror(e) : "ok");
    return 0;
}
