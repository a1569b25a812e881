/* A one-page mmap'd buffer read near its end with a page-sized count. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef CLEAN
#define N 96
#else
#define N 4096
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fd < 0 || pg == MAP_FAILED) return 2;
    munmap(pg + 4096, 4096);
    ssize_t n = read(fd, pg + 4000, N); /*BAD call=read problem=buf-unmapped*/
    printf("%zd %.2s\n", n, pg + 4000);
    return 0;
}
