/* A 4x16 grid; reading two rows from row 1 stays in the grid (fine),
   reading two rows from row 3 runs past it. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
char grid[4][16];
char grid_name[16] = "grid";
#ifdef CLEAN
#define ROW 2
#else
#define ROW 3
#endif
int main(void) {
    int fd = open("two.txt", O_RDONLY);
    if (fd < 0) return 2;
    ssize_t a = pread(fd, grid[1], 2 * sizeof grid[0], 0);
    ssize_t b = pread(fd, grid[ROW], 2 * sizeof grid[0], 0); /*BAD call=pread problem=global-overflow kind=global name=grid size=64*/
    printf("%zd %zd %.2s %s\n", a, b, grid[1], grid_name);
    return 0;
}
