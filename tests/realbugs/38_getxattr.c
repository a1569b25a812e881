/* getxattr into a 16-byte local with 256; listxattr into an 8-byte heap block with 1024. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#ifdef CLEAN
#define VLEN sizeof val
#define LLEN 8
#else
#define VLEN 256
#define LLEN 1024
#endif
int main(void) {
    char val[16];
    ssize_t n = getxattr("two.txt", "user.comment", val, VLEN); /*BAD call=getxattr problem=stack-overflow kind=stack-variable name=val size=16 arg=value*/
    int e = errno;
    char *list = malloc(8);
    if (!list) return 2;
    ssize_t m = listxattr("two.txt", list, LLEN); /*BAD call=listxattr problem=heap-overflow kind=heap-block size=8 arg=list*/
    printf("getxattr %zd %s listxattr %zd\n", n, n < 0 ? strerror(e) : "", m);
    free(list);
    return 0;
}
