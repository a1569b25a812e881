/* valloc(300) read with a page; reallocarray(NULL, 10, 12) read as 10 x 16. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N1 300
#define ESZ 12
#else
#define N1 4096
#define ESZ 16
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *v = valloc(300);
    char *ra = reallocarray(NULL, 10, 12);
    if (fd < 0 || !v || !ra) return 2;
    ssize_t a = pread(fd, v, N1, 0); /*BAD call=pread problem=heap-overflow kind=heap-block size=300*/
    ssize_t b = pread(fd, ra, 10 * ESZ, 0); /*BAD call=pread problem=heap-overflow kind=heap-block size=120*/
    printf("%zd %zd\n", a, b);
    free(v); free(ra);
    return 0;
}
