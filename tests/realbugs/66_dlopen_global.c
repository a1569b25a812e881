/* DL: libstore.c */
/* A dlopen'ed library's exported buffer read with the wrong size. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#ifdef CLEAN
#define N 64
#else
#define N 100
#endif
int main(int argc, char **argv) {
    (void)argc;
    char path[4096];
    snprintf(path, sizeof path, "%s", argv[0]);
    char *slash = path; for (char *q = path; *q; q++) if (*q == '/') slash = q;
    snprintf(slash, sizeof path - (slash - path), "/libstore_dl.so");
    void *h = dlopen(path, RTLD_NOW);
    if (!h) { printf("dlopen failed\n"); return 2; }
    char *sb = dlsym(h, "store_buf");
    int fd = open("two.txt", O_RDONLY);
    if (!sb || fd < 0) return 2;
    ssize_t n = read(fd, sb, N); /*BAD call=read problem=global-overflow kind=global name=store_buf size=64*/
    printf("%zd %.2s\n", n, sb);
    dlclose(h);
    return 0;
}
