/* demangle.c: C++ function names demangled (see demangle.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "frames/demangle.h"

#include "base/symscope.h"

/* S, then SUFFIX, into OUT, cut to CAP. */
static void put(char *out, size_t cap, const char *s, const char *suffix)
{
	size_t n = strlen(s), k = n < cap - 1 ? n : cap - 1, m = strlen(suffix);

	memcpy(out, s, k);
	if (m > cap - 1 - k)
		m = cap - 1 - k;
	memcpy(out + k, suffix, m);
	out[k + m] = '\0';
}

void rwc_demangle_with(rwc_demangler dem, void (*free_fn)(void *), const char *name, char *out, size_t cap)
{
	char base[4096], *d;
	const char *ver;
	size_t n;
	int status = -1;

	if (cap == 0)
		return;
	if (!name)
		name = "";
	ver = strchr(name, '@');
	n = ver ? (size_t)(ver - name) : strlen(name);
	if (!dem || strncmp(name, "_Z", 2) != 0 || n >= sizeof base) {
		put(out, cap, name, "");
		return;
	}
	memcpy(base, name, n);
	base[n] = '\0';
	d = dem(base, NULL, NULL, &status);
	if (d && status == 0)
		put(out, cap, d, ver ? ver : "");
	else
		put(out, cap, name, "");
	if (d)
		free_fn(d);
}

void rwc_demangle(const char *name, char *out, size_t cap)
{
	static rwc_demangler dem; /* found once; looked for until then */
	void *a = NULL;

	if (name && strncmp(name, "_Z", 2) == 0 && !__atomic_load_n(&dem, __ATOMIC_ACQUIRE) &&
	    rwc_sym_first("__cxa_demangle", NULL, NULL, &a) && a)
		__atomic_store_n(&dem, (rwc_demangler)a, __ATOMIC_RELEASE);
	rwc_demangle_with(__atomic_load_n(&dem, __ATOMIC_ACQUIRE), free, name, out, cap);
}
