/* A default name pointing at a string literal is used as the read target. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    char owned[16] = "default";
#ifdef CLEAN
    char *name = owned;
#else
    char *name = (char *)"default";
#endif
    ssize_t n = read(fd, name, 8); /*BAD call=read problem=buf-not-writable*/
    int e = errno;
    printf("%zd %s %s\n", n, n < 0 ? strerror(e) : "ok", owned);
    return 0;
}
