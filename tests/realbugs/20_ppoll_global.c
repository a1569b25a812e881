/* Global watch list of 2 pollfds, ppoll'd with 3. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
struct pollfd watch[2] = { { .fd = -1 }, { .fd = -1 } };
struct pollfd watch_spare = { .fd = -1 };
#ifdef CLEAN
#define NW 2
#else
#define NW 3
#endif
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    watch[0].fd = p[0];
    watch[0].events = POLLIN;
    struct timespec ts = { 0, 0 };
    int r = ppoll(watch, NW, &ts, NULL); /*BAD call=ppoll problem=global-overflow kind=global name=watch size=16 arg=fds*/
    printf("ppoll %d revents %d spare %d\n", r, watch[0].revents, watch_spare.fd);
    return 0;
}
