/* A zero-length allocation (empty payload) read with a count of 16. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N(len) (len)
#else
#define N(len) 16
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    size_t len = 0;
    char *p = malloc(len);
    if (fd < 0 || !p) return 2;
    ssize_t n = read(fd, p, N(len)); /*BAD call=read problem=heap-overflow kind=heap-block size=0*/
    printf("%zd\n", n);
    free(p);
    return 0;
}
