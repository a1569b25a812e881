/* A struct with a flexible array member; reading n bytes into ->data is fine, n+16 is not. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
struct blob { size_t len; char data[]; };
#ifdef CLEAN
#define EXTRA 0
#else
#define EXTRA 16
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    size_t n = 50;
    struct blob *b = malloc(sizeof *b + n);
    if (fd < 0 || !b) return 2;
    ssize_t r = read(fd, b->data, n + EXTRA); /*BAD call=read problem=heap-overflow kind=heap-block size=58*/
    b->len = r > 0 ? (size_t)r : 0;
    printf("%zu %.2s\n", b->len, b->data);
    free(b);
    return 0;
}
