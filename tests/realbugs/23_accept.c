/* accept() with addrlen set to sizeof(struct sockaddr_storage) for a sockaddr_in;
   getsockname() into a heap sockaddr_in with sizeof(struct sockaddr_un). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#ifdef CLEAN
#define PEERLEN sizeof(struct sockaddr_in)
#define NAMELEN sizeof(struct sockaddr_in)
#else
#define PEERLEN sizeof(struct sockaddr_storage)
#define NAMELEN sizeof(struct sockaddr_un)
#endif
int main(void) {
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 4) < 0) return 2;
    struct sockaddr_in peer;
    socklen_t plen = PEERLEN;
    int c = accept(ls, (struct sockaddr *)&peer, &plen); /*BAD call=accept problem=stack-overflow kind=stack-variable name=peer size=16 arg=addr*/
    int e = errno;
    struct sockaddr_in *self = malloc(sizeof *self);
    if (!self) return 2;
    socklen_t slen = NAMELEN;
    int r = getsockname(ls, (struct sockaddr *)self, &slen); /*BAD call=getsockname problem=heap-overflow kind=heap-block size=16 arg=addr*/
    slen = NAMELEN;
    int c2 = accept4(ls, (struct sockaddr *)self, &slen, SOCK_CLOEXEC); /*BAD call=accept4 problem=heap-overflow kind=heap-block size=16 arg=addr*/
    int e2 = errno;
    printf("accept %d %s; getsockname %d family %d len %u; accept4 %d %s\n", c, strerror(e), r, self->sin_family, (unsigned)slen, c2, strerror(e2));
    free(self);
    return 0;
}
