/* Raw syscall(): SYS_read into a 100-byte block with 4096; SYS_getrandom into 30 with 32. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef CLEAN
#define RN 100
#define GN 30
#else
#define RN 4096
#define GN 32
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(100);
    unsigned char *k = malloc(30);
    if (fd < 0 || !p || !k) return 2;
    long n = syscall(SYS_read, fd, p, RN); /*BAD call=syscall problem=heap-overflow kind=heap-block size=100*/
    long g = syscall(SYS_getrandom, k, GN, 0); /*BAD call=syscall problem=heap-overflow kind=heap-block size=30*/
    printf("%ld %.2s %ld\n", n, p, g);
    free(k);
    free(p);
    return 0;
}
