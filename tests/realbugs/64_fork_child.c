/* The bad read happens in a forked child. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef CLEAN
#define N 100
#else
#define N 1000
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    char *p = malloc(100);
    if (fd < 0 || !p) return 2;
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        ssize_t n = read(fd, p, N); /*BAD call=read problem=heap-overflow kind=heap-block size=100*/
        _exit(n == 2 ? 0 : 1);
    }
    int st = 0;
    waitpid(c, &st, 0);
    printf("child exit %d\n", WEXITSTATUS(st));
    free(p);
    return 0;
}
