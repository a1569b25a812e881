/* recvmmsg with vlen 4 over an array of 2 mmsghdrs, and one message's iovec past a block. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef CLEAN
#define LEN 32
#else
#define LEN 256
#endif
int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv) < 0) return 2;
    char *b0 = malloc(32), *b1 = malloc(32);
    if (!b0 || !b1) return 2;
    struct iovec iov[2] = { { b0, 32 }, { b1, LEN } };
    struct mmsghdr msgs[2];
    memset(msgs, 0, sizeof msgs);
    msgs[0].msg_hdr.msg_iov = &iov[0]; msgs[0].msg_hdr.msg_iovlen = 1;
    msgs[1].msg_hdr.msg_iov = &iov[1]; msgs[1].msg_hdr.msg_iovlen = 1;
    int n = recvmmsg(sv[0], msgs, 2, MSG_DONTWAIT, NULL); /*BAD call=recvmmsg problem=heap-overflow kind=heap-block size=32*/
    printf("recvmmsg %d %s\n", n, n < 0 ? strerror(errno) : "");
    free(b0); free(b1);
    return 0;
}
