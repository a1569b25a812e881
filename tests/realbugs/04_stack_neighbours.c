/* Two neighbouring arrays; the read into magic uses the size of both. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef CLEAN
#define N sizeof magic
#else
#define N (sizeof magic + sizeof name)
#endif
static int parse_header(int fd) {
    char magic[8];
    char name[32];
    memset(name, 0, sizeof name);
    strcpy(name, "unnamed");
    ssize_t n = read(fd, magic, N); /*BAD call=read problem=stack-overflow kind=stack-variable name=magic size=8*/
    printf("magic %zd bytes '%.*s', name '%s'\n", n, (int)(n > 0 ? n : 0), magic, name);
    return (int)n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    return parse_header(fd) == 2 ? 0 : 1;
}
