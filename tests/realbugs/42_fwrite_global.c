/* fwrite of a 100-byte global output buffer with 200 to /dev/null. */
#include <stdio.h>
#include <string.h>
static char outbuf[100];
static long total_out;
#ifdef CLEAN
#define N sizeof outbuf
#else
#define N 200
#endif
int main(void) {
    FILE *f = fopen("/dev/null", "w");
    if (!f) return 2;
    strcpy(outbuf, "payload");
    size_t n = fwrite(outbuf, 1, N, f); /*BAD call=fwrite problem=global-overflow kind=global name=outbuf size=100*/
    total_out += (long)n;
    fclose(f);
    printf("wrote %ld\n", total_out > 0 ? 1L : 0L);
    return 0;
}
