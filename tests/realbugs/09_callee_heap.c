/* main allocates a 100-byte buffer, the loader reads with its own idea of the size. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define LOAD_SIZE 100
#else
#define LOAD_SIZE 4096
#endif
static ssize_t load(int fd, char *dst) {
    ssize_t total = 0, n;
    while ((n = read(fd, dst + total, LOAD_SIZE - total)) > 0) /*BAD call=read problem=heap-overflow kind=heap-block size=100*/
        total += n;
    return n < 0 ? n : total;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *buf = malloc(100);
    if (fd < 0 || !buf) return 2;
    ssize_t n = load(fd, buf);
    printf("loaded %zd: %.2s\n", n, buf);
    free(buf);
    return 0;
}
