/* A small library with an exported buffer and a private static one. */
#include <unistd.h>
char store_buf[64];
int store_len;
static char lib_scratch[48];
static int lib_count = 1;
#ifdef CLEAN
#define LN sizeof lib_scratch
#else
#define LN 96
#endif
ssize_t store_fill(int fd) {
    ssize_t n = read(fd, lib_scratch, LN); /*BAD call=read problem=global-overflow kind=global name=lib_scratch size=48*/
    if (n > 0) lib_count += (int)n;
    return n;
}
int store_count(void) { return lib_count; }
char store_first(void) { return lib_scratch[0]; }
