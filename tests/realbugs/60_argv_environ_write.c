/* Clean only: writes argv[0], an environment string, a string literal and a
   whole local struct; none of these is a bug. The bad twin writes one byte
   past the end of the local struct. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
struct pt { int x, y; };
#ifdef CLEAN
#define EXTRA 0
#else
#define EXTRA 1
#endif
int main(int argc, char **argv, char **envp) {
    (void)argc;
    int out = open("/dev/null", O_WRONLY);
    if (out < 0) return 2;
    ssize_t a = write(out, argv[0], strlen(argv[0]) + 1);
    const char *e = envp[0] ? envp[0] : "";
    ssize_t b = write(out, e, strlen(e) + 1);
    ssize_t c = write(out, "literal text\n", 13);
    const char *home = getenv("PATH");
    ssize_t d = home ? write(out, home, strlen(home)) : 0;
    struct pt p = { 1, 2 };
    ssize_t f = write(out, &p, sizeof p + EXTRA); /*BAD call=write problem=stack-overflow kind=stack-variable name=p size=8*/
    printf("%d %d %d %d %zd\n", a > 0, b > 0, c == 13, d >= 0, f);
    return 0;
}
