/* A 4 KiB buffer shrunk to 100 bytes with realloc, then read with the old size. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N 100
#else
#define N 4096
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(4096);
    if (fd < 0 || !p) return 2;
    p[0] = 'x';
    char *q = realloc(p, 100);
    if (!q) return 2;
    p = q;
    ssize_t n = read(fd, p, N); /*BAD call=read problem=heap-overflow kind=heap-block size=100*/
    printf("%zd %.2s\n", n, p);
    free(p);
    return 0;
}
