/* A connection object with a 64 KiB receive buffer; the reader appends at
   conn->used and asks for a fixed CHUNK, forgetting the space left. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define BUFCAP 65536
#ifdef CLEAN
#define CHUNK(c) (BUFCAP - (c)->used)
#else
#define CHUNK(c) 4096
#endif
struct conn { int fd; size_t used; char *buf; };
static ssize_t conn_fill(struct conn *c) {
    ssize_t n = read(c->fd, c->buf + c->used, CHUNK(c)); /*BAD call=read problem=heap-overflow kind=heap-block size=65536*/
    if (n > 0) c->used += n;
    return n;
}
int main(void) {
    struct conn c = { open("two.txt", O_RDONLY), BUFCAP - 100, malloc(BUFCAP) };
    if (c.fd < 0 || !c.buf) return 2;
    ssize_t n = conn_fill(&c);
    printf("filled %zd, used %zu, tail '%.2s'\n", n, c.used, c.buf + BUFCAP - 100);
    free(c.buf);
    return 0;
}
