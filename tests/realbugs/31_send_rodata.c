/* A protocol greeting in read-only data sent as a fixed 64-byte record. */
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
static const char hello[] = "HELLO";
#ifdef CLEAN
#define N sizeof hello
#else
#define N 64
#endif
int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) return 2;
    ssize_t n = send(sv[0], hello, N, MSG_DONTWAIT); /*BAD call=send problem=global-overflow kind=global name=hello size=6*/
    char got[8] = { 0 };
    ssize_t m = recv(sv[1], got, 6, 0);
    printf("sent %zd, got %zd '%s'\n", n > 0 ? (ssize_t)1 : n, m, got);
    return 0;
}
