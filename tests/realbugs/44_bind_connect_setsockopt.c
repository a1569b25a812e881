/* bind with an IPv6-sized length for a sockaddr_in on the stack; connect with
   sizeof(sockaddr_storage) for a heap sockaddr_in; setsockopt with sizeof(long) for an int. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef CLEAN
#define BLEN sizeof(struct sockaddr_in)
#define CLEN sizeof(struct sockaddr_in)
#define OLEN sizeof(int)
#else
#define BLEN sizeof(struct sockaddr_in6)
#define CLEN sizeof(struct sockaddr_storage)
#define OLEN sizeof(long)
#endif
int main(void) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0) return 2;
    int one = 1;
    int r0 = setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, OLEN); /*BAD call=setsockopt problem=stack-overflow kind=stack-variable name=one size=4 arg=optval*/
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int r1 = bind(s, (struct sockaddr *)&sin, BLEN); /*BAD call=bind problem=stack-overflow kind=stack-variable name=sin size=16 arg=addr*/
    struct sockaddr_in *dst = calloc(1, sizeof *dst);
    if (!dst) return 2;
    dst->sin_family = AF_INET;
    dst->sin_port = htons(9);
    dst->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int r2 = connect(s, (struct sockaddr *)dst, CLEN); /*BAD call=connect problem=heap-overflow kind=heap-block size=16 arg=addr*/
    printf("%d %d %d\n", r0, r1, r2);
    free(dst);
    return 0;
}
