/* A message queue of 256-byte messages received into a 64-byte block. */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CLEAN
#define BUFSZ 256
#else
#define BUFSZ 64
#endif
int main(void) {
    struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 256 };
    mq_unlink("/rwc_tester_q");
    mqd_t q = mq_open("/rwc_tester_q", O_CREAT | O_RDONLY | O_NONBLOCK, 0600, &attr);
    if (q == (mqd_t)-1) { perror("mq_open"); return 2; }
    char *buf = malloc(BUFSZ);
    if (!buf) return 2;
    ssize_t n = mq_receive(q, buf, attr.mq_msgsize, NULL); /*BAD call=mq_receive problem=heap-overflow kind=heap-block size=64 arg=msg_ptr*/
    printf("mq_receive %zd %s\n", n, n < 0 ? strerror(errno) : "");
    mq_close(q);
    mq_unlink("/rwc_tester_q");
    free(buf);
    return 0;
}
