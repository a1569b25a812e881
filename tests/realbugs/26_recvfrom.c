/* UDP receive into a 512-byte block with the MTU as length; the source
   address buffer is a sockaddr_in with an IPv6-sized length. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef CLEAN
#define LEN 512
#define FROMLEN sizeof(struct sockaddr_in)
#else
#define LEN 1500
#define FROMLEN sizeof(struct sockaddr_in6)
#endif
int main(void) {
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0) return 2;
    char *pkt = malloc(512);
    if (!pkt) return 2;
    struct sockaddr_in from;
    socklen_t fl = sizeof from;
    ssize_t n = recvfrom(s, pkt, LEN, 0, (struct sockaddr *)&from, &fl); /*BAD call=recvfrom problem=heap-overflow kind=heap-block size=512*/
    int e1 = errno;
    fl = FROMLEN;
    ssize_t m = recvfrom(s, pkt, 512, MSG_DONTWAIT, (struct sockaddr *)&from, &fl); /*BAD call=recvfrom problem=stack-overflow kind=stack-variable name=from size=16 arg=src_addr*/
    int e2 = errno;
    printf("%zd %s / %zd %s\n", n, strerror(e1), m, strerror(e2));
    free(pkt);
    return 0;
}
