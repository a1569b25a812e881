/* An initialised banner in .data written with a fixed record size. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
char banner[32] = "rwcheck test banner";
int banner_written = 7;
#ifdef CLEAN
#define N sizeof banner
#else
#define N 64
#endif
int main(void) {
    int out = open("/dev/null", O_WRONLY);
    if (out < 0) return 2;
    ssize_t n = write(out, banner, N); /*BAD call=write problem=global-overflow kind=global name=banner size=32*/
    banner_written += (int)n;
    printf("wrote %zd, counter %d\n", n, banner_written);
    return 0;
}
