/* readlink into a 16-byte heap buffer with PATH_MAX; readlinkat into a 32-byte array with 256. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N1 16
#define N2 sizeof buf
#else
#define N1 PATH_MAX
#define N2 256
#endif
static void show_link(const char *path) {
    char buf[32];
    ssize_t m = readlinkat(AT_FDCWD, path, buf, N2); /*BAD call=readlinkat problem=stack-overflow kind=stack-variable name=buf size=32 arg=buf*/
    printf("readlinkat %zd %.*s\n", m, (int)(m > 0 ? m : 0), buf);
}
int main(void) {
    char *target = malloc(16);
    if (!target) return 2;
    ssize_t n = readlink("lnk", target, N1); /*BAD call=readlink problem=heap-overflow kind=heap-block size=16 arg=buf*/
    printf("readlink %zd %.*s\n", n, (int)(n > 0 ? n : 0), target);
    show_link("lnk");
    free(target);
    return 0;
}
