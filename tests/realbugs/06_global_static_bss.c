/* A static line buffer in .bss read with the wrong constant. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#define LINE_MAX_ 100
static char linebuf[LINE_MAX_];
static int nlines;
#ifdef CLEAN
#define N sizeof linebuf
#else
#define N 256
#endif
static ssize_t next_line(int fd) {
    ssize_t n = read(fd, linebuf, N); /*BAD call=read problem=global-overflow kind=global name=linebuf size=100*/
    if (n > 0) nlines++;
    return n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t n = next_line(fd);
    printf("%zd bytes, %d lines: %.2s\n", n, nlines, linebuf);
    return 0;
}
