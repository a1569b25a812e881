/* A strdup'd name written as a fixed 64-byte field. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef CLEAN
#define FIELD(s) (strlen(s) + 1)
#else
#define FIELD(s) 64
#endif
static ssize_t put_field(int out, const char *s) {
    return write(out, s, FIELD(s)); /*BAD call=write problem=heap-overflow kind=heap-block size=12*/
}
int main(int argc, char **argv) {
    (void)argc;
    int out = open("/dev/null", O_WRONLY);
    char *name = strdup(argv[0][0] ? "hello world" : "x");
    if (out < 0 || !name) return 2;
    ssize_t n = put_field(out, name);
    printf("wrote %zd for '%s'\n", n, name);
    free(name);
    return 0;
}
