/* select() with a hard-coded nfds of 1500 on a plain fd_set; a big set
   allocated on purpose is also selected with 1500 (that call is fine). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <unistd.h>
#ifdef CLEAN
#define NFDS(fd) ((fd) + 1)
#else
#define NFDS(fd) 1500
#endif
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    fd_set rfds;
    FD_ZERO(&rfds);
    FD_SET(p[0], &rfds);
    struct timeval tv = { 0, 0 };
    int r = select(NFDS(p[0]), &rfds, NULL, NULL, &tv); /*BAD call=select problem=stack-overflow kind=stack-variable name=rfds size=128 arg=readfds*/
    /* a set of 2048 bits allocated on purpose: nfds 1500 is fine */
    size_t bytes = 2048 / 8;
    fd_set *big = calloc(1, bytes);
    if (!big) return 2;
    ((unsigned long *)big)[p[0] / 64] |= 1UL << (p[0] % 64);
    struct timeval tv2 = { 0, 0 };
    int r2 = select(1500, big, NULL, NULL, &tv2);
    printf("select %d %d\n", r, r2);
    free(big);
    return 0;
}
