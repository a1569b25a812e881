/* getgroups with a count of 32 into an array of 4. */
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef CLEAN
#define NG 4
#else
#define NG 32
#endif
int main(void) {
    gid_t groups[4];
    int n = getgroups(NG, groups); /*BAD call=getgroups problem=stack-overflow kind=stack-variable name=groups size=16 arg=list*/
    printf("%d groups, first %d\n", n, n > 0 ? (int)groups[0] : -1);
    return 0;
}
