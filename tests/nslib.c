/* nslib.c: libnsa.so and libnsb.so, two small libraries that need libc,
 * for tests/victim_dlmopen.c (a namespace's first module, and the one
 * that takes its link map after it is closed). */
#include <stdio.h>

__attribute__((visibility("default"))) char ns_data[1 << 16] = {1};
int ns_say(void);

__attribute__((visibility("default"))) int ns_say(void)
{
	return puts(ns_data);
}
