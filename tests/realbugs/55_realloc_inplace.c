/* A block shrunk in place and grown again in place: 150 is fine, 160 is not. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N 150
#else
#define N 160
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(200);
    if (fd < 0 || !p) return 2;
    char *q = realloc(p, 50);
    char *r = realloc(q, 150);
    if (!r) return 2;
    ssize_t n = read(fd, r, N); /*BAD call=read problem=heap-overflow kind=heap-block size=150*/
    printf("%zd %.2s same=%d\n", n, r, r == p);
    free(r);
    return 0;
}
