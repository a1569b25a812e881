/* After malloc_usable_size() the whole usable size is the program's (clean);
   the bad twin reads 32 past the usable size. */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define EXTRA 0
#else
#define EXTRA 32
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(100);
    if (fd < 0 || !p) return 2;
    size_t cap = malloc_usable_size(p);
    ssize_t n = read(fd, p, cap + EXTRA); /*BAD call=read problem=heap-overflow kind=heap-block size=104*/
    printf("cap>=100 %d read %zd %.2s\n", cap >= 100, n, p);
    free(p);
    return 0;
}
