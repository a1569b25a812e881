/* errno after calls: a successful clean call and a successful bad call leave
   errno as it was; a failing call sets it. */
#include <errno.h>
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
    char *p = malloc(100);
    if (fd < 0 || !p) return 2;
    errno = 777;
    ssize_t n = read(fd, p, N); /*BAD call=read problem=heap-overflow kind=heap-block size=100*/
    int e1 = errno;
    errno = 0;
    ssize_t m = read(-1, p, 10);
    int e2 = errno;
    errno = 555;
    ssize_t k = read(fd, p, 0);
    int e3 = errno;
    printf("%zd errno %d; %zd errno %d; %zd errno %d\n", n, e1, m, e2, k, e3);
    free(p);
    return 0;
}
