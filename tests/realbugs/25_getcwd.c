/* getcwd into a 64-byte heap buffer with 4096, and into a 32-byte global with PATH_MAX. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static char g_cwd[32];
static int g_have_cwd;
#ifdef CLEAN
#define N1 64
#define N2 sizeof g_cwd
#else
#define N1 4096
#define N2 PATH_MAX
#endif
int main(void) {
    if (chdir(".") < 0) return 2;
    char *cwd = malloc(64);
    if (!cwd) return 2;
    char *r = getcwd(cwd, N1); /*BAD call=getcwd problem=heap-overflow kind=heap-block size=64 arg=buf*/
    g_have_cwd = getcwd(g_cwd, N2) != NULL; /*BAD call=getcwd problem=global-overflow kind=global name=g_cwd size=32 arg=buf*/
    printf("%s %s %d\n", r ? cwd : "(null)", g_cwd, g_have_cwd);
    free(cwd);
    return 0;
}
