/* Worker threads: one reads 256 into a 64-byte local, one reads 4096 into a
   100-byte block it allocated (from a thread arena). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef CLEAN
#define N1 64
#define N2 100
#else
#define N1 256
#define N2 4096
#endif
static void *worker_stack(void *arg) {
    int fd = *(int *)arg;
    char buf[64];
    ssize_t n = pread(fd, buf, N1, 0); /*BAD call=pread problem=stack-overflow kind=stack-variable name=buf size=64*/
    return (void *)n;
}
static void *worker_heap(void *arg) {
    int fd = *(int *)arg;
    char *p = malloc(100);
    if (!p) return (void *)-2L;
    ssize_t n = pread(fd, p, N2, 0); /*BAD call=pread problem=heap-overflow kind=heap-block size=100*/
    free(p);
    return (void *)n;
}
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    pthread_t t1, t2;
    void *r1, *r2;
    pthread_create(&t1, NULL, worker_stack, &fd);
    pthread_join(t1, &r1);
    pthread_create(&t2, NULL, worker_heap, &fd);
    pthread_join(t2, &r2);
    printf("%ld %ld\n", (long)r1, (long)r2);
    return 0;
}
