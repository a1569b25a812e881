/* getdents64 into a 1 KiB block with a count of 8 KiB. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef CLEAN
#define CNT 1024
#else
#define CNT 8192
#endif
int main(void) {
    mkdir("emptydir", 0755);
    int d = open("emptydir", O_RDONLY | O_DIRECTORY);
    char *buf = malloc(1024);
    if (d < 0 || !buf) return 2;
    ssize_t n = getdents64(d, buf, CNT); /*BAD call=getdents64 problem=heap-overflow kind=heap-block size=1024 arg=dirp*/
    int entries = 0;
    for (ssize_t off = 0; off < n; entries++) off += ((struct dirent64 *)(buf + off))->d_reclen;
    printf("%d entries\n", entries);
    free(buf);
    return 0;
}
