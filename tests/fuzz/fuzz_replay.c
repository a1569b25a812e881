/* fuzz_replay.c: runs a fuzz target over the files named on the command
 * line (the kept corpus), printing TAP: make check replays every corpus
 * entry, so whatever the fuzzer once found stays fixed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 20];
		size_t n;

		if (!f) {
			printf("not ok %d - cannot open %s\n", i, argv[i]);
			continue;
		}
		n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		printf("ok %d - %s\n", i, argv[i]);
	}
	printf("1..%d\n", argc - 1);
	return 0;
}
