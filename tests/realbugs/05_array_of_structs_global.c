/* A table of fixed records in .bss, loaded 3 records at a time from index 6. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
struct entry { int id; int flags; char tag[16]; };
struct entry table[8];
int table_count;
#ifdef CLEAN
#define NREC 2
#else
#define NREC 3
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t n = read(fd, &table[6], NREC * sizeof(struct entry)); /*BAD call=read problem=global-overflow kind=global name=table size=192*/
    table_count = (int)(n / (ssize_t)sizeof(struct entry));
    printf("read %zd bytes, %d records, first id byte %d\n", n, table_count, ((unsigned char *)&table[6])[0]);
    return 0;
}
