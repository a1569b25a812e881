/* recv into a global struct's body member with the size of the whole struct. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
struct pdu { unsigned short kind; unsigned short len; char body[60]; };
struct pdu g_in;
struct pdu g_out;
#ifdef CLEAN
#define LEN sizeof g_in.body
#else
#define LEN sizeof g_in
#endif
int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) return 2;
    ssize_t n = recv(sv[0], g_in.body, LEN, MSG_DONTWAIT); /*BAD call=recv problem=global-overflow kind=global name=g_in size=64*/
    printf("recv %zd %s\n", n, n < 0 ? strerror(errno) : "");
    return 0;
}
