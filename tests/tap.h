/* tap.h: minimal TAP output for the C unit tests. */
#ifndef RWC_TAP_H
#define RWC_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                    \
	do {                                                             \
		int ok_ = !!(cond);                                      \
		printf("%s %d - ", ok_ ? "ok" : "not ok", ++tap_n);      \
		printf(__VA_ARGS__);                                     \
		printf("\n");                                            \
		if (!ok_) {                                              \
			tap_failed++;                                    \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}                                                        \
	} while (0)

#define done_testing() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)

#endif
