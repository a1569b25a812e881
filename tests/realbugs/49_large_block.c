/* A 1 MiB (mmapped) buffer; the last 50 bytes read with a count of 4096. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define CAP (1 << 20)
#ifdef CLEAN
#define N 50
#else
#define N 4096
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *big = malloc(CAP);
    if (fd < 0 || !big) return 2;
    ssize_t n = read(fd, big + CAP - 50, N); /*BAD call=read problem=heap-overflow kind=heap-block size=1048576*/
    printf("%zd %.2s\n", n, big + CAP - 50);
    free(big);
    return 0;
}
