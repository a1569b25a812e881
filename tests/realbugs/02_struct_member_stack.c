/* Reading sizeof(struct) into the struct's payload member. */
#include <fcntl.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
struct msg { uint32_t len; char data[60]; };
#ifdef CLEAN
#define N (sizeof(struct msg) - offsetof(struct msg, data))
#else
#define N sizeof(struct msg)
#endif
static int handle(int fd) {
    struct msg m;
    m.len = 0;
    ssize_t n = read(fd, m.data, N); /*BAD call=read problem=stack-overflow kind=stack-variable name=m size=64*/
    if (n < 0) return -1;
    m.len = (uint32_t)n;
    printf("msg len %u: %.*s\n", m.len, (int)m.len, m.data);
    return 0;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    return handle(fd) ? 1 : 0;
}
