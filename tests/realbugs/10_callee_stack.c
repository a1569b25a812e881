/* main's stack array is passed down to a helper that reads 256 bytes into it. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#ifdef CLEAN
#define NAME_LEN 64
#else
#define NAME_LEN 256
#endif
ssize_t get_name(int fd, char *out) {
    ssize_t n = read(fd, out, NAME_LEN); /*BAD call=read problem=stack-overflow kind=stack-variable name=name size=64*/
    if (n >= 0) out[n < 63 ? n : 63] = 0;
    return n;
}
int main(void) {
    char name[64];
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t n = get_name(fd, name);
    printf("name (%zd): %s\n", n, n > 0 ? name : "");
    return 0;
}
