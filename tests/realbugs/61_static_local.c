/* A function-static buffer (symbol buf.0 or similar) read with the wrong size. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#ifdef CLEAN
#define N 40
#else
#define N 80
#endif
static const char *read_token(int fd) {
    static char buf[40];
    static int calls;
    ssize_t n = read(fd, buf, N); /*BAD call=read problem=global-overflow kind=global size=40*/
    calls++;
    if (n >= 0 && n < 40) buf[n] = 0;
    return calls ? buf : "";
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    printf("token %s\n", read_token(fd));
    return 0;
}
