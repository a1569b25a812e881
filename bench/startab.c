/* startab.c: process start, A/B at the finest grain this machine allows.
 *
 *   bench/startab N - LIB1 LIB2 ...      (make startab: rwcheck, the
 *                                          empty library, none)
 *
 * Spawns /bin/true (or $STARTAB_PROG, with $STARTAB_ARG as its one
 * argument if set: rwbench-nodw one) N times with each preload in turn,
 * one spawn of each per round in a shuffled order, so that a noisy moment
 * of the shared machine weighs on every variant alike; "-" is no preload,
 * and "LIB|NAME=VALUE" adds one variable to that variant's environment
 * ("LIB|A=1|B=2": two, up to four).
 * Prints each variant's median and 10%-trimmed mean, and the trimmed mean
 * over the first variant's.  The parent is not preloaded: this measures
 * what a library adds to the start of the process it is loaded into.
 * `make bench` measures the whole (its process-start line preloads the
 * spawning program as well); this is the tool for deciding whether a
 * change to the library's start is worth a percent. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define MAX_VARIANTS 32
#define MAX_EXTRA 4

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double trimmed_mean(double *v, int n)
{
	double s = 0;
	int c = 0;

	qsort(v, (size_t)n, sizeof *v, by_value);
	for (int i = n / 10; i < n - n / 10; i++, c++)
		s += v[i];
	return c ? s / c : 0;
}

int main(int argc, char **argv)
{
	const char *prog = getenv("STARTAB_PROG") ? getenv("STARTAB_PROG") : "/bin/true";
	char *child_argv[] = {(char *)prog, getenv("STARTAB_ARG"), NULL};
	char preload[MAX_VARIANTS][1024], extra[MAX_VARIANTS][256], *envx[MAX_VARIANTS][MAX_EXTRA];
	int n = argc > 1 ? atoi(argv[1]) : 0, k = argc - 2;
	unsigned r = 2463534242u;
	double *t, base = 0;

	if (n < 1 || k < 1 || k > MAX_VARIANTS) {
		fprintf(stderr, "usage: %s N - LIB [LIB|NAME=VALUE ...]\n", argv[0]);
		return 2;
	}
	for (int j = 0; j < k; j++) {
		char *bar;

		snprintf(preload[j], sizeof preload[j], "LD_PRELOAD=%s",
			 strcmp(argv[2 + j], "-") ? argv[2 + j] : "");
		snprintf(extra[j], sizeof extra[j], "STARTAB=1");
		bar = strchr(preload[j], '|');
		if (bar) {
			*bar = '\0';
			snprintf(extra[j], sizeof extra[j], "%s", bar + 1);
		}
		for (int e = 0, at = 0; e < MAX_EXTRA; e++) { /* split at each further '|' */
			char *s = extra[j] + at, *b = strchr(s, '|');

			envx[j][e] = at < 0 ? NULL : s;
			if (b)
				*b = '\0', at = (int)(b + 1 - extra[j]);
			else
				at = -1;
		}
	}
	t = calloc((size_t)n * (size_t)k, sizeof *t);
	if (!t)
		return 1;
	for (int i = 0; i < n; i++) {
		int order[MAX_VARIANTS];

		for (int j = 0; j < k; j++)
			order[j] = j;
		for (int j = k - 1; j > 0; j--) { /* xorshift shuffle */
			int s, x;

			r ^= r << 13;
			r ^= r >> 17;
			r ^= r << 5;
			s = (int)(r % (unsigned)(j + 1));
			x = order[j];
			order[j] = order[s];
			order[s] = x;
		}
		for (int jj = 0; jj < k; jj++) {
			int j = order[jj], status;
			char *envp[] = {preload[j], "RWCHECK_LOG=/dev/null", envx[j][0], envx[j][1], envx[j][2], envx[j][3], NULL};
			pid_t pid;
			double t0 = now_ns();

			if (posix_spawn(&pid, prog, NULL, NULL, child_argv, envp) != 0) {
				perror("posix_spawn");
				return 1;
			}
			waitpid(pid, &status, 0);
			t[(size_t)j * (size_t)n + (size_t)i] = now_ns() - t0;
		}
	}
	for (int j = 0; j < k; j++) {
		double *v = t + (size_t)j * (size_t)n, tm = trimmed_mean(v, n);

		if (j == 0)
			base = tm;
		printf("%-50s median %8.1f us  trimmed mean %8.1f us  ratio %.3f\n", argv[2 + j],
		       v[n / 2] / 1e3, tm / 1e3, tm / base);
	}
	free(t);
	return 0;
}
