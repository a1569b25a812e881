/* sendto with a global sockaddr_in and sizeof(sockaddr_storage) as addrlen. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
struct sockaddr_in g_peer;
int g_sent;
#ifdef CLEAN
#define ALEN sizeof g_peer
#else
#define ALEN sizeof(struct sockaddr_storage)
#endif
int main(void) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    int r = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (s < 0 || r < 0 || bind(r, (struct sockaddr *)&a, sizeof a) < 0 || getsockname(r, (struct sockaddr *)&g_peer, &al) < 0) return 2;
    ssize_t n = sendto(s, "ping", 4, 0, (struct sockaddr *)&g_peer, ALEN); /*BAD call=sendto problem=global-overflow kind=global name=g_peer size=16 arg=dest_addr*/
    g_sent = (int)n;
    char buf[8] = { 0 };
    ssize_t m = recv(r, buf, sizeof buf - 1, 0);
    printf("sent %d got %zd %s\n", g_sent, m, buf);
    return 0;
}
