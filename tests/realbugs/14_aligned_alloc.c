/* A cache-line aligned 256-byte block, second half read with a full-size count. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N 128
#else
#define N 256
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = aligned_alloc(64, 256);
    if (fd < 0 || !p) return 2;
    ssize_t n = read(fd, p + 128, N); /*BAD call=read problem=heap-overflow kind=heap-block size=256*/
    printf("%zd %.2s aligned=%d\n", n, p + 128, (int)(((unsigned long)p & 63) == 0));
    free(p);
    return 0;
}
