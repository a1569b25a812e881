/* A SIGUSR1 handler reads a command into a static 16-byte buffer with 64. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static char cmd[16];
static volatile sig_atomic_t got;
static int cmd_fd;
#ifdef CLEAN
#define N sizeof cmd
#else
#define N 64
#endif
static void on_usr1(int sig) {
    (void)sig;
    ssize_t n = pread(cmd_fd, cmd, N, 0); /*BAD call=pread problem=global-overflow kind=global name=cmd size=16*/
    got = (sig_atomic_t)n;
}
int main(void) {
    cmd_fd = open("two.txt", O_RDONLY);
    if (cmd_fd < 0) return 2;
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    printf("handler read %d %.2s\n", (int)got, cmd);
    return 0;
}
