/* An event loop allocates 8 events but asks for 64. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>
struct loop { int ep; int cap; struct epoll_event *evs; };
#ifdef CLEAN
#define MAXEVENTS(l) ((l)->cap)
#else
#define MAXEVENTS(l) 64
#endif
static int loop_run_once(struct loop *l) {
    return epoll_wait(l->ep, l->evs, MAXEVENTS(l), 0); /*BAD call=epoll_wait problem=heap-overflow kind=heap-block size=96 arg=events*/
}
int main(void) {
    int p[2];
    if (pipe(p) < 0) return 2;
    struct loop l = { epoll_create1(0), 8, NULL };
    l.evs = malloc(l.cap * sizeof *l.evs);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = p[0] };
    if (l.ep < 0 || !l.evs || epoll_ctl(l.ep, EPOLL_CTL_ADD, p[0], &ev) < 0) return 2;
    printf("ready: %d\n", loop_run_once(&l));
    free(l.evs);
    return 0;
}
