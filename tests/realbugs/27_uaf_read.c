/* A session buffer is freed on an error path and then read into. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
struct session { int fd; char *buf; int closed; };
static void session_error(struct session *s) {
    free(s->buf);
    s->closed = 1;
#ifdef CLEAN
    s->buf = NULL;
#endif
}
int main(void) {
    struct session s = { open("two.txt", O_RDONLY), malloc(256), 0 };
    if (s.fd < 0 || !s.buf) return 2;
    char *keep = malloc(32);
    session_error(&s);
    ssize_t n = -1;
    if (s.buf)
        n = read(s.fd, s.buf, 256); /*BAD call=read problem=use-after-free kind=freed-heap-block size=256*/
    printf("closed %d, read %zd\n", s.closed, n);
    free(keep);
    return 0;
}
