/* A growable buffer: grown to 200, then read with the old fixed size 300. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef CLEAN
#define N 200
#else
#define N 300
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(16);
    if (fd < 0 || !p) return 2;
    strcpy(p, "abc");
    char *q = realloc(p, 200);
    if (!q) return 2;
    p = q;
    ssize_t n = read(fd, p, N); /*BAD call=read problem=heap-overflow kind=heap-block size=200*/
    printf("%zd %.2s\n", n, p);
    free(p);
    return 0;
}
