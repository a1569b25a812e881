/* An alloca'd scratch buffer read with a count that runs into the callers' frames. */
#include <alloca.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#ifdef CLEAN
#define N 64
#else
#define N 4096
#endif
static ssize_t slurp(int fd, size_t cap) {
    char *tmp = alloca(cap);
    ssize_t n = read(fd, tmp, N); /*BAD call=read problem=stack-overflow*/
    if (n > 0) printf("first %c\n", tmp[0]);
    return n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    printf("%zd\n", slurp(fd, 64));
    return 0;
}
