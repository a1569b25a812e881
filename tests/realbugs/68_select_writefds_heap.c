/* pselect with nfds 2048 over heap-allocated single fd_sets (write and except sets). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>
#ifdef CLEAN
#define NFDS(fd) ((fd) + 1)
#else
#define NFDS(fd) 2048
#endif
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    fd_set *w = malloc(sizeof *w), *x = malloc(sizeof *x);
    if (!w || !x) return 2;
    FD_ZERO(w); FD_ZERO(x);
    FD_SET(p[1], w);
    struct timespec ts = { 0, 0 };
    int r = pselect(NFDS(p[1]), NULL, w, x, &ts, NULL); /*BAD call=pselect problem=heap-overflow kind=heap-block size=128 arg=writefds*/
    printf("pselect %d writable %d\n", r, FD_ISSET(p[1], w) ? 1 : 0);
    free(w); free(x);
    return 0;
}
