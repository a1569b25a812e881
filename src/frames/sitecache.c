/* sitecache.c: the call-site cache across processes (see sitecache.h).
 * One file per module, DIR/<build-id>-<version>-<rules>.sites, records appended (sitefmt.h)
 * by one write each with O_APPEND (whole records: concurrent writers do
 * not interleave within one); read back whole at a module's first look,
 * up to the first record that does not check (a write still under way
 * leaves only the file's end short; past a record that does not check,
 * or a file over MAXFILE, nothing more is written to it).  A site twice in
 * a file: either counts (both were worked out from the same bytes).  The
 * file name carries the library's version: another rwcheck may judge
 * variables otherwise.  No write where the process has a file size limit
 * (SIGXFSZ would end it). */
#include "config.h"

#include "frames/sitecache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/knobs.h"
#include "base/real.h"
#include "frames/dwprobe.h"

#define NMODS 32
#define MAXFILE (4u << 20) /* a larger file is not read */

struct at { uint64_t pcoff; const unsigned char *rec; unsigned n; };

static struct mod {
	uintptr_t bias;
	const char *name;      /* the loader's, its identity (with bias) */
	unsigned char *data;   /* the file as read (NULL: none) */
	struct at *sites;      /* sorted by pcoff */
	size_t nsites;
	int writable;          /* read to its end, every record good */
	char id[132];          /* build-id in hex; "" none: no cache */
} mods[NMODS];
static unsigned nmods RWC_START_DATA; /* (read before mods[] is written) */
static unsigned char scratch[1u << 16]; /* a record being written */

static int by_pc(const void *a, const void *b)
{
	const struct at *x = a, *y = b;

	return x->pcoff < y->pcoff ? -1 : x->pcoff > y->pcoff;
}

/* Reads M's file and indexes its good records. */
static void load(struct mod *m, const char *path)
{
	/* (not a FIFO's wait, not a terminal made the controlling one) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	size_t len = 0, at = 0, n = 0, cap = 0;

	if (fd < 0) {
		m->writable = errno == ENOENT;
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > MAXFILE) {
		close(fd); /* (not written either) */
		return;
	}
	m->writable = st.st_size == 0;
	if (st.st_size > 0 && (m->data = malloc((size_t)st.st_size))) {
		ssize_t r;

		while (len < (size_t)st.st_size &&
		       (r = REAL(pread)(fd, m->data + len, (size_t)st.st_size - len, (off_t)len)) > 0)
			len += (size_t)r;
	}
	close(fd);
	while (at < len) { /* each good record, once */
		struct at s = {0, m->data + at, 0};
		size_t l = rwc_sf_decode(s.rec, len - at, &s.pcoff, &s.n);

		if (!l)
			break;
		if (n == cap) {
			struct at *more = realloc(m->sites, (cap = cap ? 2 * cap : 64) * sizeof *more);

			if (!more)
				break; /* (the rest not used; the file not written: writable stays 0) */
			m->sites = more;
		}
		m->sites[n++] = s;
		at += l;
	}
	m->writable |= len > 0 && at == len;
	if (n)
		qsort(m->sites, n, sizeof *m->sites, by_pc);
	m->nsites = n;
}

/* The rules by which dwvars.c picks a call site's variables: raise it
 * when they change, so that no file written under other rules is read. */
#define RULES "r4"

/* M's file: DIR/<build-id>-<version>-<rules>.sites (PATH: the room of DIR
 * + 160). */
static void file_of(const struct mod *m, char *path)
{
	strcpy(path, rwc_knobs.cache);
	strcat(path, "/");
	strcat(path, m->id);
	strcat(path, "-" PACKAGE_VERSION "-" RULES ".sites");
}


/* The module holding PC - 1, found or made (its file read at the first
 * look); *PCOFF the pc's offset in it; NULL: no cache for it. */
static struct mod *mod_of(uintptr_t pc, uint64_t *pcoff)
{
	struct rwc_dw_module dm = {0};
	struct mod *m;
	char path[sizeof rwc_knobs.cache + 160];

	if (!rwc_knobs.cache[0] || !pc || !rwc_dw_module_of(pc - 1, &dm) || pc < dm.bias)
		return NULL;
	*pcoff = pc - dm.bias;
	for (unsigned i = 0; i < nmods; i++)
		if (mods[i].bias == dm.bias && mods[i].name == dm.name)
			return mods[i].id[0] ? &mods[i] : NULL;
	if (nmods == NMODS)
		return NULL;
	m = &mods[nmods++];
	memset(m, 0, sizeof *m);
	m->bias = dm.bias, m->name = dm.name;
	if (!rwc_sf_build_id(dm.phdr, dm.phnum, dm.bias, m->id, sizeof m->id))
		return NULL;
	file_of(m, path);
	load(m, path);
	return m;
}

int rwc_sitecache_get(uintptr_t pc, const unsigned char **rec, unsigned *n)
{
	int saved = errno, found = 0;
	uint64_t pcoff = 0;
	struct mod *m = mod_of(pc, &pcoff);
	size_t lo = 0, hi = m ? m->nsites : 0;

	while (lo < hi) { /* the first of the pc's records */
		size_t mid = lo + (hi - lo) / 2;

		if (m->sites[mid].pcoff < pcoff)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m && lo < m->nsites && m->sites[lo].pcoff == pcoff) {
		*rec = m->sites[lo].rec;
		*n = m->sites[lo].n;
		found = 1;
	}
	errno = saved;
	return found;
}

void rwc_sitecache_put(uintptr_t pc, const struct rwc_sf_var *v, unsigned n)
{
	int saved = errno, fd;
	uint64_t pcoff = 0;
	struct mod *m = mod_of(pc, &pcoff);
	char path[sizeof rwc_knobs.cache + 160];
	size_t len = m && m->writable && rwc_no_size_limit() ? rwc_sf_encode(pcoff, v, n, scratch, sizeof scratch) : 0;

	if (!len) {
		errno = saved;
		return;
	}
	file_of(m, path);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
	if (fd >= 0) {
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			ssize_t w = REAL(write)(fd, scratch, len); /* (short: a record no reader takes) */

			(void)w;
		}
		close(fd);
	}
	errno = saved;
}

void rwc_sitecache_drop(void)
{
	for (unsigned i = 0; i < nmods; i++) {
		free(mods[i].sites);
		free(mods[i].data);
	}
	nmods = 0;
}
