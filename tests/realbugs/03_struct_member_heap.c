/* Packet struct on the heap; read sizeof(*pk) into pk->payload. */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
struct packet { int type; int len; char payload[120]; };
#ifdef CLEAN
#define N (sizeof(struct packet) - offsetof(struct packet, payload))
#else
#define N sizeof(struct packet)
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    struct packet *pk = malloc(sizeof *pk);
    if (fd < 0 || !pk) return 2;
    pk->type = 1;
    ssize_t n = read(fd, pk->payload, N); /*BAD call=read problem=heap-overflow kind=heap-block size=128*/
    pk->len = (int)n;
    printf("type %d len %d payload %.2s\n", pk->type, pk->len, pk->payload);
    free(pk);
    return 0;
}
