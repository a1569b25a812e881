/* getsockopt with optlen set to a generic buffer size instead of sizeof the int. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef CLEAN
#define OPTLEN sizeof(int)
#else
#define OPTLEN 64
#endif
int main(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return 2;
    int rcvbuf = 0;
    socklen_t len = OPTLEN;
    int r = getsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &len); /*BAD call=getsockopt problem=stack-overflow kind=stack-variable name=rcvbuf size=4 arg=optval*/
    int *type = malloc(sizeof *type);
    if (!type) return 2;
    socklen_t tlen = OPTLEN;
    int r2 = getsockopt(s, SOL_SOCKET, SO_TYPE, type, &tlen); /*BAD call=getsockopt problem=heap-overflow kind=heap-block size=4 arg=optval*/
    printf("%d %d len %u; %d type %d len %u\n", r, rcvbuf > 0, (unsigned)len, r2, *type, (unsigned)tlen);
    free(type);
    return 0;
}
