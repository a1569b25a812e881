/* LIB: libstore.c */
/* Uses a library's exported buffer (read with the wrong size) and a library
   function that reads into its own static scratch buffer. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
extern char store_buf[64];
extern int store_len;
ssize_t store_fill(int fd);
int store_count(void);
char store_first(void);
#ifdef CLEAN
#define N sizeof store_buf
#else
#define N 128
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t n = read(fd, store_buf, N); /*BAD call=read problem=global-overflow kind=global name=store_buf size=64*/
    store_len = (int)n;
    lseek(fd, 0, SEEK_SET);
    ssize_t m = store_fill(fd);
    printf("%d %.2s / %zd %d %c\n", store_len, store_buf, m, store_count(), store_first());
    return 0;
}
