/* A stale pointer kept across a realloc that moved the block. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *buf = malloc(64);
    if (fd < 0 || !buf) return 2;
    char *cursor = buf + 8;
    char *blocker = malloc(64);
    char *nb = realloc(buf, 100000);
    if (!nb) return 2;
#ifdef CLEAN
    cursor = nb + 8;
#endif
    ssize_t n = read(fd, cursor, 32); /*BAD call=read problem=use-after-free kind=freed-heap-block size=64*/
    printf("moved=%d read %zd\n", nb != buf, n);
    free(nb);
    free(blocker);
    return 0;
}
