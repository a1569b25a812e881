/* Page-aligned buffers for "direct I/O": asked for 1000 bytes, read a whole page. */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N 1000
#define M 500
#else
#define N 4096
#define M 512
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    void *p = NULL;
    if (fd < 0 || posix_memalign(&p, 4096, 1000) != 0) return 2;
    ssize_t n = read(fd, p, N); /*BAD call=read problem=heap-overflow kind=heap-block size=1000*/
    char *q = memalign(256, 500);
    if (!q) return 2;
    ssize_t m = pread(fd, q, M, 0); /*BAD call=pread problem=heap-overflow kind=heap-block size=500*/
    printf("%zd %.2s %zd %.2s\n", n, (char *)p, m, q);
    free(q);
    free(p);
    return 0;
}
