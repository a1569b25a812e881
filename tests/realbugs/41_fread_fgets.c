/* fread of 128 into a 32-byte header; fgets with 256 into a 64-byte heap line. */
#include <stdio.h>
#include <stdlib.h>
#ifdef CLEAN
#define HN sizeof hdr
#define LN 64
#else
#define HN 128
#define LN 256
#endif
int main(void) {
    FILE *f = fopen("two.txt", "r");
    if (!f) return 2;
    char hdr[32];
    size_t n = fread(hdr, 1, HN, f); /*BAD call=fread problem=stack-overflow kind=stack-variable name=hdr size=32*/
    rewind(f);
    char *line = malloc(64);
    if (!line) return 2;
    char *r = fgets(line, LN, f); /*BAD call=fgets problem=heap-overflow kind=heap-block size=64*/
    printf("fread %zu %.2s fgets %s\n", n, hdr, r ? line : "(null)");
    free(line);
    fclose(f);
    return 0;
}
