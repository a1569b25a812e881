/* bump.c: a stand-in for jemalloc/tcmalloc in the tests: another malloc,
 * preloaded next to librwcheck.so.  Blocks come from one big mapping, a
 * size word in front of each; free keeps nothing.  Enough for a small
 * program, and not glibc's. */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define EXPORT __attribute__((visibility("default")))
#define ARENA ((size_t)1 << 30)

static char *arena;
static size_t used;

static void *take(size_t al, size_t n)
{
	size_t at;
	char *p;

	if (!arena) {
		arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (arena == MAP_FAILED)
			return NULL;
	}
	if (al < 16)
		al = 16;
	at = __atomic_load_n(&used, __ATOMIC_RELAXED);
	do {
		size_t start = (at + 16 + al - 1) & ~(al - 1);
		size_t end = start + ((n + 15) & ~(size_t)15);
		if (end > ARENA) {
			errno = ENOMEM;
			return NULL;
		}
		if (__atomic_compare_exchange_n(&used, &at, end, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			p = arena + start;
			((size_t *)p)[-1] = n;
			return p;
		}
	} while (1);
}

EXPORT void *malloc(size_t n) { return take(16, n); }
EXPORT void free(void *p) { (void)p; }
EXPORT void *calloc(size_t k, size_t n) { return n && k > (size_t)-1 / n ? NULL : take(16, k * n); }
EXPORT size_t malloc_usable_size(void *p) { return p ? ((size_t *)p)[-1] : 0; }
EXPORT void *memalign(size_t al, size_t n) { return take(al, n); }
EXPORT void *aligned_alloc(size_t al, size_t n) { return take(al, n); }
EXPORT void *valloc(size_t n) { return take(4096, n); }
EXPORT void *pvalloc(size_t n) { return take(4096, (n + 4095) & ~(size_t)4095); }
EXPORT int posix_memalign(void **out, size_t al, size_t n)
{
	void *p = take(al, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
EXPORT void *realloc(void *p, size_t n)
{
	void *r = take(16, n);
	if (r && p) {
		size_t old = ((size_t *)p)[-1];
		memcpy(r, p, old < n ? old : n);
	}
	return r;
}
EXPORT void *reallocarray(void *p, size_t k, size_t n)
{
	if (n && k > (size_t)-1 / n) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, k * n);
}
