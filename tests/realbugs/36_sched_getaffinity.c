/* A 100-byte mask buffer passed with a 104-byte cpusetsize. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef CLEAN
#define SETSIZE 96
#else
#define SETSIZE 104
#endif
int main(void) {
    cpu_set_t *set = malloc(100);
    if (!set) return 2;
    int r = sched_getaffinity(0, SETSIZE, set); /*BAD call=sched_getaffinity problem=heap-overflow kind=heap-block size=100 arg=mask*/
    printf("%d cpu0 %d\n", r, CPU_ISSET_S(0, SETSIZE, set));
    free(set);
    return 0;
}
