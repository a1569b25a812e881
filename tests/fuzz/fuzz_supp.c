/* fuzz_supp.c: libFuzzer target for the suppressions parser and matcher
 * (make fuzz); the kept corpus is replayed in make check. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/suppress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(unsigned line, const char *msg, void *arg)
{
	(void)line;
	(void)arg;
	if (!msg || !*msg)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rwc_supp s[64];
	struct rwc_frame fr[2];
	char *text = malloc(size + 1);
	unsigned n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	n = rwc_supp_parse(text, size, s, 64, ignore, NULL);
	memset(fr, 0, sizeof fr);
	strcpy(fr[0].function, "f");
	strcpy(fr[0].file, "/a/b.c");
	fr[0].line = 3;
	strcpy(fr[1].module, "/lib/x.so");
	for (unsigned i = 0; i < n; i++)
		rwc_supp_match(&s[i], "buf-unmapped", fr, 2);
	free(text);
	return 0;
}
