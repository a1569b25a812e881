/* A pollfd array sized for 2, polled with nfds 3 (an off-by-one on the count). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define NFDS(n) (n)
#else
#define NFDS(n) ((n) + 1)
#endif
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    int n = 2;
    struct pollfd *fds = malloc(n * sizeof *fds);
    if (!fds) return 2;
    fds[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
    fds[1] = (struct pollfd){ .fd = -1, .events = POLLIN };
    int r = poll(fds, NFDS(n), 0); /*BAD call=poll problem=heap-overflow kind=heap-block size=16 arg=fds*/
    printf("poll %d revents %d\n", r, fds[0].revents);
    free(fds);
    return 0;
}
