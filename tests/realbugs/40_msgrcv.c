/* msgrcv with msgsz 128 into a struct with a 32-byte mtext. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
struct req { long mtype; char mtext[32]; };
#ifdef CLEAN
#define MSGSZ sizeof m.mtext
#else
#define MSGSZ 128
#endif
int main(void) {
    int id = msgget(IPC_PRIVATE, 0600);
    if (id < 0) { perror("msgget"); return 2; }
    struct req m;
    ssize_t n = msgrcv(id, &m, MSGSZ, 0, IPC_NOWAIT); /*BAD call=msgrcv problem=stack-overflow kind=stack-variable name=m size=40 arg=msgp*/
    int e = errno;
    msgctl(id, IPC_RMID, NULL);
    printf("msgrcv %zd %s\n", n, strerror(e));
    return 0;
}
