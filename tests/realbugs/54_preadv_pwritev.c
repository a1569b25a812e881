/* preadv with a segment past a calloc'd table; pwritev from a global past its end. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
char g_trailer[12] = "TRAILER";
#ifdef CLEAN
#define L1 (8 * sizeof(int))
#define L2 sizeof g_trailer
#else
#define L1 (16 * sizeof(int))
#define L2 48
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    int out = open("out.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int *tab = calloc(8, sizeof(int));
    if (fd < 0 || out < 0 || !tab) return 2;
    struct iovec iv = { tab, L1 };
    ssize_t n = preadv(fd, &iv, 1, 0); /*BAD call=preadv problem=heap-overflow kind=heap-block size=32*/
    struct iovec ov = { g_trailer, L2 };
    ssize_t m = pwritev(out, &ov, 1, 0); /*BAD call=pwritev problem=global-overflow kind=global name=g_trailer size=12*/
    printf("%zd %zd\n", n, m);
    close(out);
    unlink("out.tmp");
    free(tab);
    return 0;
}
