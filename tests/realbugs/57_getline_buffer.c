/* A buffer malloc'd inside libc by getline(), then re-filled with read() up to
   the capacity getline reported (fine); the bad twin uses twice that capacity. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#ifdef CLEAN
#define CAP(n) (n)
#else
#define CAP(n) (2 * (n))
#endif
int main(void) {
    FILE *f = fopen("two.txt", "r");
    int fd = open("two.txt", O_RDONLY);
    if (!f || fd < 0) return 2;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, f);
    ssize_t n = read(fd, line, CAP(cap)); /*BAD call=read problem=heap-overflow kind=heap-block*/
    printf("getline %zd cap>0 %d read %zd %.2s\n", len, cap > 0, n, line);
    free(line);
    fclose(f);
    return 0;
}
