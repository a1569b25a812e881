/* demangle.c: C++ function names demangled (see demangle.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "frames/demangle.h"

#include "base/symscope.h"

void rwc_demangle_with(rwc_demangler dem, void (*free_fn)(void *), char *name, size_t cap)
{
	char base[1024], *d;
	const char *ver = strchr(name, '@');
	size_t n = ver ? (size_t)(ver - name) : strlen(name), dn, vn;
	int status = -1;

	if (!dem || cap == 0 || strncmp(name, "_Z", 2) != 0 || n >= sizeof base)
		return;
	memcpy(base, name, n);
	base[n] = '\0';
	if (!(d = dem(base, NULL, NULL, &status)))
		return;
	if (status == 0) {
		vn = ver ? strlen(ver) : 0;
		dn = strlen(d);
		if (dn > cap - 1)
			dn = cap - 1;
		if (vn > cap - 1 - dn)
			vn = cap - 1 - dn;
		memmove(name + dn, ver ? ver : "", vn); /* (the suffix first: it may lie under d's copy) */
		memcpy(name, d, dn);
		name[dn + vn] = '\0';
	}
	free_fn(d);
}

void rwc_demangle(char *name, size_t cap)
{
	static rwc_demangler dem; /* found once; looked for until then */
	void *a = NULL;

	if (strncmp(name, "_Z", 2) != 0)
		return;
	if (!__atomic_load_n(&dem, __ATOMIC_ACQUIRE) && rwc_sym_first("__cxa_demangle", NULL, NULL, &a) && a)
		__atomic_store_n(&dem, (rwc_demangler)a, __ATOMIC_RELEASE);
	rwc_demangle_with(__atomic_load_n(&dem, __ATOMIC_ACQUIRE), free, name, cap);
}
