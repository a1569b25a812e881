/* pread of a 64-byte record into a 32-byte local. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#define RECSZ 64
#ifdef CLEAN
#define N sizeof rec
#else
#define N RECSZ
#endif
static int read_record(int fd, off_t off) {
    char rec[32];
    int checksum = 0;
    ssize_t n = pread(fd, rec, N, off); /*BAD call=pread problem=stack-overflow kind=stack-variable name=rec size=32*/
    for (ssize_t i = 0; i < n; i++) checksum += (unsigned char)rec[i];
    printf("record %zd bytes checksum %d\n", n, checksum);
    return (int)n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    return read_record(fd, 0) == 2 ? 0 : 1;
}
