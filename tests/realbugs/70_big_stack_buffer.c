/* A 64 KiB stack buffer; a chunk at offset 65000 read with 1000. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#ifdef CLEAN
#define N (sizeof buf - 65000)
#else
#define N 1000
#endif
static int slurp(int fd) {
    char buf[65536];
    ssize_t a = read(fd, buf, sizeof buf);
    lseek(fd, 0, SEEK_SET);
    ssize_t b = read(fd, buf + 65000, N); /*BAD call=read problem=stack-overflow kind=stack-variable name=buf size=65536*/
    printf("%zd %zd %.2s\n", a, b, buf + 65000);
    return (int)b;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    return slurp(fd) == 2 ? 0 : 1;
}
