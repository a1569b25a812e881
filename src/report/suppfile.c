/* suppfile.c: loading RWCHECK_SUPPRESS (see suppfile.h).  Allocates with
 * mmap only, once. */
#include "config.h"

#include "report/suppfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/log.h"
#include "base/real.h"
#include "report/suppress.h"

static struct rwc_supp *supps;
static unsigned nsupps;

struct ctx {
	const char *path;
};

static void parse_error(unsigned line, const char *msg, void *arg)
{
	const struct ctx *c = arg;
	char buf[1024];
	struct rwc_fmt o;

	rwc_fmt_init(&o, buf, sizeof buf);
	rwc_fmt_str(&o, "RWCHECK_SUPPRESS: ");
	rwc_fmt_str(&o, c->path);
	rwc_fmt_char(&o, ':');
	rwc_fmt_u64(&o, line);
	rwc_fmt_str(&o, ": ");
	rwc_fmt_str(&o, msg);
	rwc_fmt_str(&o, "; that suppression is ignored");
	rwc_log_warning(buf, NULL);
}

void rwc_suppfile_load(const char *path)
{
	struct ctx c = {path};
	struct stat st;
	size_t len, have = 0, cap;
	char *mem;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		rwc_log_warning("RWCHECK_SUPPRESS: cannot read the suppressions file (not a readable "
				"regular file under 64 MiB); no suppressions apply", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	len = (size_t)st.st_size;
	cap = len / 8 + 1; /* a suppression takes more than 8 bytes */
	mem = REAL(mmap)(NULL, len + 16 + cap * sizeof(struct rwc_supp), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		close(fd);
		rwc_log_warning("RWCHECK_SUPPRESS: no memory for the suppressions file", path);
		return;
	}
	while (have < len) {
		ssize_t n = REAL(read)(fd, mem + have, len - have);
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	close(fd);
	supps = (struct rwc_supp *)(void *)(mem + ((len + 1 + 15) & ~(size_t)15));
	nsupps = rwc_supp_parse(mem, have, supps, (unsigned)cap - 1, parse_error, &c);
}

const char *rwc_suppfile_match(const char *problem, const struct rwc_frame *fr, int n)
{
	for (unsigned i = 0; i < nsupps; i++)
		if (rwc_supp_match(&supps[i], problem, fr, n))
			return supps[i].name;
	return NULL;
}
