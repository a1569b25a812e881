/* A thread-local buffer: the doc says TLS variables give no verdict; the bad
   twin overruns it anyway (expected: no global-overflow, documented). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static __thread char tbuf[64];
static __thread int tcount;
#ifdef CLEAN
#define N 64
#else
#define N 128
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t n = read(fd, tbuf, N); /*BAD call=read problem=global-overflow doc=tls-no-verdict*/
    tcount = (int)n;
    printf("%d %.2s\n", tcount, tbuf);
    return 0;
}
