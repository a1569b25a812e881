/* recvmsg into a frame's body member with the whole frame size. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
struct frame { char hdr[8]; char body[56]; };
#ifdef CLEAN
#define BODYLEN sizeof f.body
#else
#define BODYLEN sizeof f
#endif
static ssize_t recv_frame(int s) {
    struct frame f;
    memset(&f, 0, sizeof f);
    struct iovec iov = { f.body, BODYLEN };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    ssize_t n = recvmsg(s, &mh, MSG_DONTWAIT); /*BAD call=recvmsg problem=stack-overflow kind=stack-variable name=f size=64*/
    return n;
}
int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) return 2;
    ssize_t n = recv_frame(sv[0]);
    printf("recvmsg %zd %s\n", n, n < 0 ? strerror(errno) : "");
    return 0;
}
