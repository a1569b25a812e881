/* An append cursor that reached the end of a 100-byte block still reads 1 byte. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define ROOM(used) (100 - (used))
#else
#define ROOM(used) 1
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(100);
    if (fd < 0 || !p) return 2;
    size_t used = 100;
    ssize_t n = ROOM(used) ? read(fd, p + used, ROOM(used)) : 0; /*BAD call=read problem=heap-overflow kind=heap-block size=100*/
    printf("%zd\n", n);
    free(p);
    return 0;
}
