/* A worker thread frees its buffer (from a thread arena) and then reads into it. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void *worker(void *arg) {
    int fd = *(int *)arg;
    char *p = calloc(1, 300);
    if (!p) return (void *)-2L;
    ssize_t n = -1;
#ifdef CLEAN
    n = pread(fd, p, 300, 0);
    free(p);
#else
    free(p);
    n = pread(fd, p, 300, 0); /*BAD call=pread problem=use-after-free kind=freed-heap-block size=300*/
#endif
    return (void *)n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    pthread_t t; void *r;
    pthread_create(&t, NULL, worker, &fd);
    pthread_join(t, &r);
    printf("%ld\n", (long)r);
    return 0;
}
