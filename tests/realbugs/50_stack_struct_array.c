/* A local array of 4 items, loading 2 items starting at the last one. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
struct item { int id; char label[36]; };
#ifdef CLEAN
#define START 2
#else
#define START 3
#endif
static int load_items(int fd) {
    struct item items[4];
    int count = 0;
    ssize_t n = read(fd, &items[START], 2 * sizeof(struct item)); /*BAD call=read problem=stack-overflow kind=stack-variable name=items size=160*/
    if (n > 0) count = (int)n;
    printf("loaded %d bytes, id byte %d\n", count, ((unsigned char *)&items[START])[0]);
    return count;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    return load_items(fd) == 2 ? 0 : 1;
}
