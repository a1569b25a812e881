/* epoll_wait with maxevents larger than the events array. */
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>
#define MAXEV 4
#ifdef CLEAN
#define WANT MAXEV
#else
#define WANT 16
#endif
static int poll_once(int ep) {
    struct epoll_event evs[MAXEV];
    int n = epoll_wait(ep, evs, WANT, 0); /*BAD call=epoll_wait problem=stack-overflow kind=stack-variable name=evs size=48 arg=events*/
    return n;
}
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = p[0] };
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) < 0) return 2;
    printf("ready: %d\n", poll_once(ep));
    return 0;
}
