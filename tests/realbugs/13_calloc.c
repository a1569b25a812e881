/* calloc(10, sizeof rec) read with a stale record size of 32. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
struct rec { int a; double b; char c[8]; };
#ifdef CLEAN
#define RECSZ sizeof(struct rec)
#else
#define RECSZ 32
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    size_t nrec = 10;
    struct rec *recs = calloc(nrec, sizeof *recs);
    if (fd < 0 || !recs) return 2;
    ssize_t n = read(fd, recs, nrec * RECSZ); /*BAD call=read problem=heap-overflow kind=heap-block size=240*/
    printf("%zd bytes, a=%d\n", n, recs[0].a);
    free(recs);
    return 0;
}
