/* readv: header into a struct, body into a 100-byte block with a 4096 segment;
   writev: a strdup'd string with a fixed segment length. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
struct hdr { char magic[2]; };
#ifdef CLEAN
#define BODY 100
#define SEG(s) strlen(s)
#else
#define BODY 4096
#define SEG(s) 32
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    int out = open("/dev/null", O_WRONLY);
    struct hdr h;
    char *body = malloc(100);
    if (fd < 0 || out < 0 || !body) return 2;
    struct iovec iov[2] = { { &h, sizeof h }, { body, BODY } };
    ssize_t n = readv(fd, iov, 2); /*BAD call=readv problem=heap-overflow kind=heap-block size=100*/
    char *s = strdup("key=value");
    struct iovec ov[2] = { { "k:", 2 }, { s, SEG(s) } };
    ssize_t m = writev(out, ov, 2); /*BAD call=writev problem=heap-overflow kind=heap-block size=10*/
    printf("readv %zd %.2s writev %zd\n", n, h.magic, m);
    free(s);
    free(body);
    return 0;
}
