/* A 30-byte key buffer filled with a 32-byte getrandom (the overrun lands in malloc's slack). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#ifdef CLEAN
#define KEYLEN 30
#else
#define KEYLEN 32
#endif
int main(void) {
    unsigned char *key = malloc(30);
    if (!key) return 2;
    ssize_t n = getrandom(key, KEYLEN, 0); /*BAD call=getrandom problem=heap-overflow kind=heap-block size=30 arg=buf*/
    printf("got %zd random bytes\n", n);
    free(key);
    return 0;
}
